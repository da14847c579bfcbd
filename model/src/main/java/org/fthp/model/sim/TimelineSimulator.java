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
 * <li>With spares ({@link org.fthp.model.strategy.Recovery}) and a committed
 * checkpoint, an interruption is a rollback in place instead: a free spare takes
 * the lost rank and the job pays the rollback's cost; with no spare free it is
 * a relaunch, which brings every spare back. A failure that strikes an idle
 * spare leaves one fewer. With replicas restored, free spares become the
 * replicas of ranks that lost theirs at each commit (one rollback that loses
 * nothing) and at each rollback.
 * <li>Silent corruptions ({@link org.fthp.model.strategy.SilentErrors}): those
 * the twins of an intact pair detect interrupt the job like a failure (no spare
 * needed: no process is lost); the others are counted as unprotected
 * process-seconds of the work the run keeps, from which
 * {@link MonteCarlo} gets the share of runs that end silently wrong.
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
        if (setup.processes() != machine.processes()) {
            throw new IllegalArgumentException("setup for " + setup.processes()
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

    private enum Phase {
        /** Work: corruptions detected by twins interrupt it, undetected ones expose the result. */
        FORWARD,
        /** Writing a checkpoint: failures and detections as in work, no exposure counted. */
        CHECKPOINT,
        /** Relaunch, rollback or restoration: any failure starts it over. */
        RECOVERY
    }

    /** The mutable state of one run. */
    private final class Run {
        private final FailureStream failures;
        private final SplittableRandom random;
        private final boolean stopAtFirstInterruption;
        private final int singles = setup.ranks() - setup.replicatedRanks();
        private final double detectedRate = setup.strategy().replicates()
                ? setup.silentErrors().detectedRatePerCopy() : 0;
        private final boolean exposed = setup.silentErrors().any();
        private int intactPairs = setup.replicatedRanks();
        private int halfPairs;
        private int idleSpares = setup.spares();

        private double now;
        private double elapsedInPhase;   // time of the interrupted phase before its interruption, repairs excluded
        private boolean processLost;     // the interruption took a rank's last copy (not a detected corruption)
        private double useful;
        private double checkpoint;
        private double restart;
        private double lostWork;
        private double repair;
        private double logTrim;
        private long failureCount;
        private long interruptionCount;
        private long rollbacks;
        private long restorations;
        private double pendingExposure;   // unprotected process-seconds of the chunk under way
        private double exposure;          // of committed chunks
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
                pendingExposure = 0;
                if (!phase(forward, Phase.FORWARD)) {
                    logTrim += elapsedInPhase * trimShare;
                    lostWork += elapsedInPhase * (1 - trimShare);
                    committed = setup.strategy().checkpoints() ? committed : 0;
                    interrupted(committed > 0);
                    continue;
                }
                logTrim += forward * trimShare;
                double pending = forward * (1 - trimShare);
                if (setup.strategy().checkpoints() && !last) {
                    if (!phase(setup.checkpointSeconds(), Phase.CHECKPOINT)) {
                        checkpoint += elapsedInPhase;
                        lostWork += pending;
                        interrupted(committed > 0);
                        continue;
                    }
                    checkpoint += setup.checkpointSeconds();
                }
                useful += pending;
                committed += chunk;
                exposure += pendingExposure;
                if (!last) {
                    restoreReplicasAtCommit();
                }
            }
            TimeSplit split = new TimeSplit(useful, checkpoint, restart, lostWork, repair, logTrim);
            return new Timeline(now, Math.min(committed, workSeconds), split, failureCount, interruptionCount,
                    firstInterruption, failuresToFirst, finished, rollbacks, restorations, exposure);
        }

        /**
         * The job lost a rank (or its twins disagreed): roll back in place when a
         * checkpoint is committed and a spare is free (none needed after a detected
         * corruption: no process is lost), else relaunch on fresh processes, every
         * replica and spare back. Either is redone until it gets through.
         */
        private void interrupted(boolean checkpointCommitted) {
            interruptionCount++;
            if (interruptionCount == 1) {
                firstInterruption = now;
                failuresToFirst = failureCount;
            }
            if (stopAtFirstInterruption) {
                return;
            }
            double cost;
            if (checkpointCommitted && setup.recovery().hasSpares() && (!processLost || idleSpares > 0)) {
                if (processLost) {
                    idleSpares--;   // the spare takes the lost rank: singles and half pairs keep their counts
                }
                rollbacks++;
                if (setup.restoresReplicas()) {
                    takeSparesAsReplicas();
                }
                cost = setup.recovery().rollbackSeconds();
            } else {
                intactPairs = setup.replicatedRanks();
                halfPairs = 0;
                idleSpares = setup.spares();
                cost = setup.restartSeconds();
            }
            recover(cost, true);
        }

        /** After a commit, free spares become the replicas of ranks that lost theirs: one rollback losing nothing. */
        private void restoreReplicasAtCommit() {
            if (!setup.restoresReplicas() || halfPairs == 0 || idleSpares == 0) {
                return;
            }
            takeSparesAsReplicas();
            restorations++;
            recover(setup.recovery().rollbackSeconds(), false);
        }

        private void takeSparesAsReplicas() {
            int restored = Math.min(halfPairs, idleSpares);
            halfPairs -= restored;
            intactPairs += restored;
            idleSpares -= restored;
        }

        private void recover(double cost, boolean countRetries) {
            if (clock == FailureClock.INJECTOR) {
                now += cost;
                restart += cost;
                failures.restartAt(now);
                return;
            }
            while (!phase(cost, Phase.RECOVERY)) {
                restart += elapsedInPhase;
                if (countRetries) {
                    interruptionCount++;
                }
            }
            restart += cost;
        }

        /**
         * Runs a phase of the given length; failures on the way cost repairs or
         * interrupt it, and in work and checkpoints a corruption the twins detect
         * interrupts it. True when it completed; false with {@link #elapsedInPhase}
         * and {@link #processLost} set.
         */
        private boolean phase(double length, Phase kind) {
            double done = 0;
            while (true) {
                double next = failures.peek();
                double detection = kind != Phase.RECOVERY && detectedRate > 0 && intactPairs > 0
                        ? now - Math.log(1 - random.nextDouble()) / (2 * intactPairs * detectedRate)
                        : Double.POSITIVE_INFINITY;
                double end = now + (length - done);
                if (next >= end && detection >= end) {
                    expose(kind, end - now);
                    now = end;
                    return true;
                }
                if (detection < next) {   // memoryless: redrawn at every event, so the rate follows the pairs
                    expose(kind, detection - now);
                    done += detection - now;
                    now = detection;
                    elapsedInPhase = done;
                    processLost = false;
                    return false;
                }
                if (next > now) {   // a failure during a repair is dealt with once the repair is over
                    expose(kind, next - now);
                    done += next - now;
                    now = next;
                }
                failures.take();
                failureCount++;
                Strike strike = kind == Phase.RECOVERY ? Strike.INTERRUPT : strike();
                if (strike == Strike.INTERRUPT) {
                    elapsedInPhase = done;
                    processLost = true;
                    return false;
                }
                if (strike == Strike.REPAIR) {
                    now += setup.repairSeconds();
                    repair += setup.repairSeconds();
                }
            }
        }

        /** Process-seconds of work during which a corruption would go unnoticed. */
        private void expose(Phase kind, double seconds) {
            if (exposed && kind == Phase.FORWARD) {
                int unprotected = setup.silentErrors().twinComparison()
                        ? singles + halfPairs : singles + 2 * intactPairs + halfPairs;
                pendingExposure += unprotected * seconds;
            }
        }

        private Strike strike() {
            if (machine.strikes() == Strikes.LIVE_PROCESSES) {
                int live = singles + 2 * intactPairs + halfPairs + idleSpares;
                int victim = random.nextInt(live);
                if (victim < singles + halfPairs) {
                    return Strike.INTERRUPT;
                }
                if (victim < singles + halfPairs + 2 * intactPairs) {
                    intactPairs--;
                    halfPairs++;
                    return Strike.REPAIR;
                }
                idleSpares--;   // a spare lost while it waits: the job goes on with one fewer
                return Strike.HARMLESS;
            }
            int victim = random.nextInt(setup.processes());
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
            if (victim < halfPairs) {
                return Strike.INTERRUPT;
            }
            victim -= halfPairs;
            if (victim < idleSpares) {
                idleSpares--;
            }
            return Strike.HARMLESS;   // a dead process, or an idle spare
        }
    }
}
