package org.fthp.coordinator.checkpoint;

import java.util.OptionalDouble;

import org.fthp.coordinator.event.JobShape;
import org.fthp.model.CheckpointInterval;
import org.fthp.model.JobMtti;

/**
 * How long the primary waits, after a commit (or the start), before the next checkpoint is due.
 *
 * <ul>
 * <li>{@link Fixed}: {@code --checkpoint-interval S}.
 * <li>{@link Auto}: Daly's higher-order interval from the measured cost C (mean of the last few checkpoints, the
 *     slowest rank of each) and the job's MTTI as it stands: N ranks of which M have a replica, a rank lost only
 *     when both its copies are, per-process failures exponential ({@link JobMtti#exponential}). The per-process
 *     MTBF is {@code --mtbf-per-process} when given; otherwise it is estimated from the failures seen so far
 *     (process-seconds run / failures), and before any failure it is {@link Auto#PRIOR_MTBF_PER_PROCESS_SECONDS}.
 *     Until a checkpoint has been measured C is taken as {@link Auto#ASSUMED_FIRST_COST_SECONDS}, small, so the
 *     first checkpoint comes early and measures the real cost.
 * <li>{@link #NEVER}: no timer (checkpoints only when the program forces one).
 * </ul>
 */
public sealed interface IntervalPolicy {
    /** The shortest interval ever chosen: below it the job would do little but checkpoint. */
    double MIN_SECONDS = 1.0;

    IntervalPolicy NEVER = new Never();

    /** What the policy knows when it decides. */
    record Inputs(JobShape shape, OptionalDouble meanCostSeconds, int failuresSeen, double runSeconds) {
    }

    /** The interval and a few words on how it was found (for the log). */
    record Decision(double seconds, String basis) {
    }

    /** Empty for {@link #NEVER}. */
    java.util.Optional<Decision> decide(Inputs in);

    record Never() implements IntervalPolicy {
        @Override
        public java.util.Optional<Decision> decide(Inputs in) {
            return java.util.Optional.empty();
        }
    }

    record Fixed(double seconds) implements IntervalPolicy {
        public Fixed {
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("checkpoint interval must be > 0 seconds: " + seconds);
            }
        }

        @Override
        public java.util.Optional<Decision> decide(Inputs in) {
            return java.util.Optional.of(new Decision(seconds, "fixed"));
        }
    }

    /** @param mtbfPerProcessSeconds the user's per-process MTBF, if given */
    record Auto(OptionalDouble mtbfPerProcessSeconds) implements IntervalPolicy {
        public static final double ASSUMED_FIRST_COST_SECONDS = 0.1;
        /** One day per process: a guess that only matters until failures are seen. */
        public static final double PRIOR_MTBF_PER_PROCESS_SECONDS = 86_400;

        @Override
        public java.util.Optional<Decision> decide(Inputs in) {
            int n = in.shape().logicalRanks();
            int m = in.shape().replicated();
            double mtbf;
            String mtbfBasis;
            if (mtbfPerProcessSeconds.isPresent()) {
                mtbf = mtbfPerProcessSeconds.getAsDouble();
                mtbfBasis = "given";
            } else if (in.failuresSeen() > 0 && in.runSeconds() > 0) {
                mtbf = in.runSeconds() * (n + m) / in.failuresSeen();
                mtbfBasis = "from " + in.failuresSeen() + " failures seen";
            } else {
                mtbf = PRIOR_MTBF_PER_PROCESS_SECONDS;
                mtbfBasis = "assumed, no failure seen yet";
            }
            double mtti = JobMtti.exponential(n, m, mtbf);
            double cost = in.meanCostSeconds().orElse(ASSUMED_FIRST_COST_SECONDS);
            double seconds = Math.max(MIN_SECONDS, CheckpointInterval.daly(Math.max(cost, 1e-6), mtti));
            return java.util.Optional.of(new Decision(seconds, String.format(
                    "Daly: cost %.3f s%s, job MTTI %.1f s (N=%d, M=%d, per-process MTBF %.0f s %s)", cost,
                    in.meanCostSeconds().isPresent() ? "" : " assumed", mtti, n, m, mtbf, mtbfBasis)));
        }
    }

    /** {@code S} seconds, or {@code auto}. */
    public static IntervalPolicy parse(String value, OptionalDouble mtbfPerProcess) {
        if (value.equals("auto")) {
            return new Auto(mtbfPerProcess);
        }
        if (value.equals("none")) {
            return NEVER;
        }
        try {
            return new Fixed(Double.parseDouble(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("checkpoint interval must be seconds or 'auto', not '" + value + "'");
        }
    }

    /** For the coordinator's command line. */
    public static String format(IntervalPolicy p) {
        return switch (p) {
            case Never n -> "none";
            case Fixed f -> Double.toString(f.seconds());
            case Auto a -> "auto";
        };
    }

    public static IntervalPolicy fromArgument(String value, String mtbf) {
        return parse(value, mtbf == null ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(mtbf)));
    }
}
