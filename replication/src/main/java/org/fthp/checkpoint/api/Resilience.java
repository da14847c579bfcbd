package org.fthp.checkpoint.api;

import mpi.MPIException;

import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.RollbackSignal;

/**
 * The resilient entry's loop: tells the coordinators the body is entered (a rollback is possible from then on),
 * runs it, and on a rollback rebuilds the engine and runs it again.
 */
final class Resilience {

    /**
     * With FTHP_TRACE_ROLLBACK set, each rollback's steps on this process on stderr (wall-clock milliseconds, to set
     * beside the coordinators' events): when it heard of it, when the body had unwound to here, when the new engine
     * was built.
     */
    private static final boolean TRACE = System.getenv("FTHP_TRACE_ROLLBACK") != null;

    /** Whether a body runs on this process now (one at a time, not nested). */
    private static boolean inBody;

    private Resilience() {}

    static void run(ResilientBody body) throws MPIException {
        if (inBody) {
            throw new CheckpointException("Checkpoint.resilient called from inside a resilient body");
        }
        Engine engine = Engine.get();
        ResilientBody.Start start = engine.replacement() ? ResilientBody.Start.REPLACEMENT
                : engine.generation() > 0 ? ResilientBody.Start.ROLLBACK : ResilientBody.Start.FIRST;
        inBody = true;
        CheckpointSession.of(engine).enteringBody();
        try {
            while (true) {
                engine.bodyEntered();
                RollbackSignal rollback;
                try {
                    body.run(start);
                    // a difference between twins found here still rolls back in place (the job waits in its bodies)
                    CheckpointSession.of(engine).bodyReturned();
                    engine.bodyLeft();
                    return;
                } catch (RollbackSignal s) {
                    rollback = s;
                } catch (RuntimeException | MPIException | Error e) {
                    // a program that wrapped the signal in its own exception still unwound to here
                    rollback = causeOf(e);
                    if (rollback == null) {
                        throw e;
                    }
                }
                long unwoundAt = System.currentTimeMillis();
                CheckpointSession.bodyUnwound();
                int nativeRank = engine.nativeRank();
                engine = Engine.rollBack(rollback, CheckpointSession::oldRunSettled);
                if (TRACE) {
                    RuntimeMessages.say("fthp-rollback-trace native " + nativeRank + " generation "
                            + rollback.rollback().generation() + " announced " + rollback.announcedAtMillis()
                            + " unwound " + unwoundAt + " rebuilt " + System.currentTimeMillis()
                            + " cpu " + rollback.announcedCpuMillis());
                }
                start = ResilientBody.Start.ROLLBACK;
            }
        } finally {
            inBody = false;
        }
    }

    private static RollbackSignal causeOf(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RollbackSignal s) {
                return s;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
