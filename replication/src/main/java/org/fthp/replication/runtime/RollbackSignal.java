package org.fthp.replication.runtime;

import org.fthp.coordinator.wire.Message;

/**
 * The job rolls back in place (a rank lost every copy and a spare takes it, a spare restores a rank's replica, or
 * the twins of a rank differed):
 * thrown at this process's next MPI or checkpoint call, or at once in the call it waits in, and at every MPI call
 * after that, until it reaches the resilient entry ({@code Checkpoint.resilient}), which catches it and runs the
 * body again. An {@link Error} so that a program's {@code catch (Exception)} or {@code catch (MPIException)} lets it
 * through; a program that catches it anyway and goes on never reaches the rollback point, and the coordinators
 * relaunch the job.
 */
public final class RollbackSignal extends Error {

    private static final long serialVersionUID = 1L;

    private final transient Message.Rollback rollback;
    /** When this process heard of the rollback (wall clock, to set beside the coordinators' events). */
    private final long announcedAtMillis = System.currentTimeMillis();
    /** The process's CPU time then (milliseconds; -1 unless FTHP_TRACE_ROLLBACK is set). */
    private final transient long announcedCpuMillis = RollbackTrace.cpuMillis();

    RollbackSignal(Message.Rollback rollback) {
        super("the job rolls back to checkpoint epoch " + rollback.epoch() + " (generation " + rollback.generation()
                + "): rank " + rollback.lostRank() + (rollback.afterSdc()
                        ? "'s twins differ (silent data corruption)" : rollback.restoresReplica()
                        ? " lost a copy and a spare becomes its replica" : " lost every copy and a spare takes it")
                + "; unwinding to Checkpoint.resilient", null, false, false);
        this.rollback = rollback;
    }

    /** When this process heard of the rollback, in milliseconds since the epoch. */
    public long announcedAtMillis() {
        return announcedAtMillis;
    }

    /** The CPU time this process had used when it heard of the rollback (ms; -1 unless traced). */
    public long announcedCpuMillis() {
        return announcedCpuMillis;
    }

    /** What the coordinators announced. */
    public Message.Rollback rollback() {
        return rollback;
    }
}
