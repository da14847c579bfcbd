package org.fthp.model.sim;

import java.util.SplittableRandom;
import org.fthp.model.Strikes;
import org.fthp.model.failure.FailureStream;
import org.fthp.model.strategy.Machine;
import org.fthp.model.strategy.Setup;

/**
 * A job's timeline under a machine's failure stream, one seeded run at a time:
 * work in chunks of the setup's interval, a checkpoint after each chunk but the
 * last, and on each failure the strategy's answer.
 *
 * <ul>
 * <li>A failure that strikes a copy of a rank whose other copy lives costs a
 * repair (everyone waits while communicators are rebuilt and messages
 * recovered) and the job goes on with one copy fewer.
 * <li>A failure that strikes a dead process (only with
 * {@link Strikes#ANY_PROCESS}) changes nothing.
 * <li>Any other failure interrupts the job: the work since the last committed
 * checkpoint is lost (all of it without checkpoints), the job restarts on fresh
 * processes (every replica back), paying the restart time; a failure during a
 * restart starts it over (under {@link FailureClock#MACHINE}; under
 * {@link FailureClock#INJECTOR} restarts are not struck and each incarnation
 * gets a fresh failure stream). A checkpoint does not bring dead replicas
 * back: a replicated job ages between restarts.
 * </ul>
 *
 * Efficiency is the paper's: kept work per process against a failure-free run
 * without replicas on the same processes (the paper's baseline also carries the
 * scaling loss from 1024 processes, which the model leaves out).
 *
 * The processes are tracked as counts (singletons, intact pairs, pairs with one
 * copy left): victims are drawn uniformly, so which pair is struck does not
 * matter, and a million processes cost no more than ten. A run that has not
 * finished after {@code capFactor} times the work stops and reports what it did
 * (the job barely progresses in that regime).
 */
public final class TimelineSimulator {

    private final Setup setup;
    private final Machine machine;
    private final double workSeconds;
    private final double capFactor;
    private final double capSeconds;
    private final FailureClock clock;

    public TimelineSimulator(Setup setup, Machine machine, double workSeconds, double capFactor, FailureClock clock) {
        if (!(workSeconds > 0) || Double.isInfinite(workSeconds)) {
            throw new IllegalArgumentException("work must be a finite number of seconds > 0, not " + workSeconds);
        }
        if (!(capFactor >= 1)) {
            throw new IllegalArgumentException("cap factor must be >= 1, not " + capFactor);
        }
        if (setup.ranks() + setup.replicatedRanks() != machine.processes()) {
            throw new IllegalArgumentException("setup for " + (setup.ranks() + setup.replicatedRanks())
                    + " processes on a machine of " + machine.processes());
        }
        this.setup = setup;
        this.machine = machine;
        this.workSeconds = workSeconds;
        this.capFactor = capFactor;
        this.capSeconds = capFactor * workSeconds * setup.forwardStretch();
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
    }

    public TimelineSimulator(Setup setup, Machine machine, double workSeconds, double capFactor) {
        this(setup, machine, workSeconds, capFactor, FailureClock.MACHINE);
    }

    public TimelineSimulator(Setup setup, Machine machine, double workSeconds) {
        this(setup, machine, workSeconds, 200);
    }

    /** The same job under another failure clock (the experiments' injector, for one). */
    public TimelineSimulator with(FailureClock otherClock) {
        return new TimelineSimulator(setup, machine, workSeconds, capFactor, otherClock);
    }

    public Timeline run(long seed) {
        return new Run(new FailureStream(machine.interArrival(), new SplittableRandom(seed)), false).play();
    }

    /**
     * A run that stops at its first interruption (unfinished, makespan = the
     * interruption's time, unless the work was done first): samples the job's
     * time and failures to interruption under the machine's failure stream.
     */
    public Timeline runUntilInterrupted(long seed) {
        return new Run(new FailureStream(machine.interArrival(), new SplittableRandom(seed)), true).play();
    }

    /** Efficiency of a run as the paper defines it: kept work per process against a failure-free plain run. */
    public double efficiency(Timeline timeline) {
        return setup.workingShare() * timeline.workDoneSeconds() / timeline.makespanSeconds();
    }

    public Setup setup() {
        return setup;
    }

    private enum Strike { INTERRUPT, REPAIR, HARMLESS }

    /** The mutable state of one run. */
    private final class Run {
        private final FailureStream failures;
        private final SplittableRandom random;
        private final boolean stopAtFirstInterruption;
        private final int singles = setup.ranks() - setup.replicatedRanks();
        private int intactPairs = setup.replicatedRanks();
        private int halfPairs;

        private double now;
        private double elapsedInPhase;   // time of the interrupted phase before its interruption, repairs excluded
        private double useful;
        private double checkpoint;
        private double restart;
        private double lostWork;
        private double repair;
        private double logTrim;
        private long failureCount;
        private long interruptionCount;
        private double firstInterruption = Double.POSITIVE_INFINITY;
        private long failuresToFirst;

        Run(FailureStream failures, boolean stopAtFirstInterruption) {
            this.failures = failures;
            this.random = failures.random();
            this.stopAtFirstInterruption = stopAtFirstInterruption;
        }

        Timeline play() {
            double committed = 0;
            boolean finished = true;
            double trimShare = setup.logTrimShare();
            while (committed < workSeconds) {
                if (now > capSeconds || (stopAtFirstInterruption && interruptionCount > 0)) {
                    finished = false;
                    break;
                }
                double chunk = Math.min(setup.intervalSeconds(), workSeconds - committed);
                boolean last = committed + chunk >= workSeconds;
                double forward = chunk * setup.forwardStretch();
                if (!phase(forward, false)) {
                    logTrim += elapsedInPhase * trimShare;
                    lostWork += elapsedInPhase * (1 - trimShare);
                    committed = setup.strategy().checkpoints() ? committed : 0;
                    interrupted();
                    continue;
                }
                logTrim += forward * trimShare;
                double pending = forward * (1 - trimShare);
                if (setup.strategy().checkpoints() && !last) {
                    if (!phase(setup.checkpointSeconds(), false)) {
                        checkpoint += elapsedInPhase;
                        lostWork += pending;
                        interrupted();
                        continue;
                    }
                    checkpoint += setup.checkpointSeconds();
                }
                useful += pending;
                committed += chunk;
            }
            TimeSplit split = new TimeSplit(useful, checkpoint, restart, lostWork, repair, logTrim);
            return new Timeline(now, Math.min(committed, workSeconds), split, failureCount, interruptionCount,
                    firstInterruption, failuresToFirst, finished);
        }

        /** Lost the processes: restart on fresh ones until a restart gets through. */
        private void interrupted() {
            interruptionCount++;
            if (interruptionCount == 1) {
                firstInterruption = now;
                failuresToFirst = failureCount;
            }
            if (stopAtFirstInterruption) {
                return;
            }
            intactPairs = setup.replicatedRanks();
            halfPairs = 0;
            if (clock == FailureClock.INJECTOR) {
                now += setup.restartSeconds();
                restart += setup.restartSeconds();
                failures.restartAt(now);
                return;
            }
            while (!phase(setup.restartSeconds(), true)) {
                restart += elapsedInPhase;
                interruptionCount++;
            }
            restart += setup.restartSeconds();
        }

        /**
         * Runs a phase of the given length; failures on the way cost repairs or
         * interrupt it. True when it completed; false with {@link #elapsedInPhase} set.
         */
        private boolean phase(double length, boolean restarting) {
            double done = 0;
            while (true) {
                double next = failures.peek();
                if (next >= now + (length - done)) {
                    now += length - done;
                    return true;
                }
                if (next > now) {   // a failure during a repair is dealt with once the repair is over
                    done += next - now;
                    now = next;
                }
                failures.take();
                failureCount++;
                Strike strike = restarting ? Strike.INTERRUPT : strike();
                if (strike == Strike.INTERRUPT) {
                    elapsedInPhase = done;
                    return false;
                }
                if (strike == Strike.REPAIR) {
                    now += setup.repairSeconds();
                    repair += setup.repairSeconds();
                }
            }
        }

        private Strike strike() {
            if (machine.strikes() == Strikes.LIVE_PROCESSES) {
                int live = singles + 2 * intactPairs + halfPairs;
                int victim = random.nextInt(live);
                if (victim < singles + halfPairs) {
                    return Strike.INTERRUPT;
                }
                intactPairs--;
                halfPairs++;
                return Strike.REPAIR;
            }
            int victim = random.nextInt(setup.ranks() + setup.replicatedRanks());
            if (victim < singles) {
                return Strike.INTERRUPT;
            }
            victim -= singles;
            if (victim < 2 * intactPairs) {
                intactPairs--;
                halfPairs++;
                return Strike.REPAIR;
            }
            victim -= 2 * intactPairs;
            return victim < halfPairs ? Strike.INTERRUPT : Strike.HARMLESS;
        }
    }
}
