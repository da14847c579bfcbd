package org.fthp.replication.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.fthp.checkpoint.verify.SdcDetectedEvent;
import org.fthp.coordinator.event.Role;
import org.fthp.replication.failure.CoordinatorLink;
import org.fthp.replication.output.RankOutput;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.progress.ParkingIdleStrategy;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.sdc.SendDigest;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.twins.TwinLink;

/**
 * The twins of a replicated rank compare what they computed (docs/DESIGN.md §22): their running hash of every send
 * and contribution (SendDigest) and, at a checkpoint, the CRC32C of their registered state. Comparisons are
 * numbered twin decisions on COMM_WORLD, taken at the same call of the program by both: at every checkpoint, at
 * the snapshot calls where the computational copy's --sdc-interval timer said one is due, when a resilient body
 * returns (while a rollback in place can still undo what it computed), and at MPI_Finalize (so a program that never
 * checkpoints is compared too).
 *
 * <p>At a checkpoint both wait for each other's hash (the computational copy forwards its own as a decision; the
 * replica answers under the next number), so the copy that writes the piece writes it only once the twins agreed:
 * an epoch commits only when every replicated rank's pieces were verified. Between checkpoints only the replica
 * waits, the computational copy runs on. A copy whose twin is dead compares nothing (until it has a replica again)
 * and counts the comparison as unchecked. On a difference the copy that found it asks the coordinators to roll the
 * job back in place to the last committed (verified) epoch and waits, computing nothing more, for the rollback (its
 * next call throws it) or for the job's end; where that cannot be (--sdc abort, output not gated by fthp-run, no
 * answer) it ends the job with {@link #EXIT_SDC}: fthp-run relaunches it from that epoch, or ends with that code
 * under --sdc abort or without a restart.
 */
public final class TwinComparison {

    /** Exit code of a job ended by a difference between twins. */
    public static final int EXIT_SDC = 6;
    /** What the reason of that end begins with (fthp-run tells it from a program's own exit 6). */
    static final String REASON = SdcDetectedEvent.REASON;
    /** Where each comparing copy leaves its tally for fthp-run's summary. */
    private static final String STATS_DIR_ENV = "FTHP_STATS_DIR";

    private final Engine engine;
    private final SendDigest digest;
    /**
     * How a copy waits for its twin's hash: parked, leaving the core to the copies still computing (its twin among
     * them, on an oversubscribed node) rather than yielding it back and forth with them.
     */
    private final IdleStrategy waitForTwin = new ParkingIdleStrategy();
    private long comparisons;
    private long unchecked;
    private long mismatches;
    /** The sends and contributions both twins agreed on at the last comparison. */
    private long agreedThrough;
    /**
     * How long a copy that found a difference waits for the coordinators' answer (a rollback, or the job's end)
     * before it ends the job itself: the primary answers at once, unless it is gone.
     */
    private static final long ANSWER_MILLIS = 10_000;

    TwinComparison(Engine engine, SendDigest digest) {
        this.engine = engine;
        this.digest = digest;
    }

    /** The comparison of the running engine (MPI may be initialised once per process). */
    private static volatile TwinComparison current;

    /** This process's comparison, or null when it has nothing to compare (no twin at start, or --sdc off). */
    public static TwinComparison of(Engine engine) {
        SendDigest d = SendDigest.active();
        if (d == null || !d.comparing()) {
            return null;
        }
        synchronized (TwinComparison.class) {
            TwinComparison c = current;
            if (c == null || c.engine != engine) {
                c = new TwinComparison(engine, d);
                current = c;
            }
            return c;
        }
    }

    /**
     * At MPI_Finalize, inside the gate: the twins compare everything they sent since the last comparison (the
     * replica compares; its twin does not wait). Nothing for a process that compares nothing.
     */
    public static void atFinalize(Engine engine) {
        TwinComparison c = engine != null && engine.running() ? of(engine) : null;
        if (c != null) {
            c.compare(-1, -1);
        }
    }

    /**
     * Compares with the twin at a checkpoint ({@code state} is this copy's state hash; both wait) or between
     * checkpoints ({@code state} &lt; 0: messages only, the computational copy does not wait). Returns whether the
     * piece may be written: the twins agreed, or this copy has no twin (any more); false when a repair for another
     * rank's failure interrupted the comparison (the epoch then does not commit). On a difference it does not
     * return.
     */
    public boolean compare(long epoch, long state) {
        return compare(epoch, state, state >= 0);
    }

    /**
     * Compares the sends and contributions with the twin, both waiting for each other (as at a checkpoint, without
     * state): when this returns, both copies know their twins agreed.
     */
    public void compareBothWaiting(long epoch) {
        compare(epoch, -1, true);
    }

    private boolean compare(long epoch, long state, boolean bothWait) {
        CommStructure world = engine.world().get().current();
        TwinLink twin = world.twin();
        if (twin == null) {
            unchecked++;
            tally();
            return true;
        }
        comparisons++;
        long[] mine = {comparisons, epoch, digest.count(), digest.value(), state};
        long[] theirs;
        if (twin.follows()) {
            theirs = engine.twins().await(world, TwinDigestOp.LONGS, waitForTwin);
            if (theirs != null && bothWait && world.current().twin() != null) {
                // the answer goes under a number both take for it; the replica counts it as its own received
                TwinLink now = world.current().twin();
                int tag = now.nextTag();
                engine.orphans().adopt(TwinDigestOp.send(engine.ops(), world.current(), tag, mine));
                now.received(tag);
            }
        } else {
            engine.twins().decide(world, mine);
            if (!bothWait) {
                tally();
                return true;
            }
            // the structure as it is now: a repair since the decision replaced the native channel
            CommStructure now = world.current();
            if (now.twin() == null) {
                theirs = null;
            } else {
                TwinDigestOp op = TwinDigestOp.receive(engine.ops(), now, now.twin().nextTag());
                DutyCycle.await(op, engine.duty()::doWork, waitForTwin);
                theirs = op.values();
            }
        }
        if (theirs == null) {
            unchecked++;
            tally();
            // a repair came first: with the twin dead the rank is unchecked from now on and writes; with the twin
            // alive (another rank's failure) nothing was verified, so this epoch must not commit
            return world.current().twin() == null || world.current().follows();
        }
        String what = theirs[2] != mine[2] || theirs[3] != mine[3] ? "messages"
                : state >= 0 && theirs[4] != mine[4] ? "state" : null;
        if (what == null) {
            agreedThrough = mine[2];
            tally();
            return true;
        }
        mismatch(epoch, what);
        return false;
    }

    private void mismatch(long epoch, String what) {
        tallyMismatch();
        String reason = REASON + " rank=" + engine.logicalRank() + " epoch=" + epoch + " what=" + what
                + (what.equals("messages") ? " firstSendAfter=" + agreedThrough : "")
                + " (the twins of rank " + engine.logicalRank() + " differ in their " + what
                + (what.equals("messages") ? " after send " + agreedThrough : "") + ")";
        RuntimeMessages.say("fthp: " + reason + " [" + (engine.role() == Role.REP ? "replica" : "computational copy")
                + "]");
        awaitRollbackInPlace(reason);
        engine.programEnd().aborting(EXIT_SDC, reason);
        Runtime.getRuntime().halt(EXIT_SDC);
    }

    /**
     * Asks the coordinators to roll the job back in place and waits for their answer without computing or calling
     * the native library (the old run's peers may wait on this process, but every one of them unwinds too): throws
     * the rollback once announced; returns if the job ends instead, or no answer comes, or no rollback in place may
     * be asked for: under --sdc abort, or when fthp-run does not hold this job's output back to the verified epoch
     * (what a corrupted copy printed since must never be shown).
     */
    private void awaitRollbackInPlace(String reason) {
        CoordinatorLink link = engine.coordinatorLink();
        if (!mayRollBackInPlace(engine)) {
            return;
        }
        link.sdcDetected(engine.nativeRank(), engine.generation(), reason);
        long deadline = System.nanoTime() + ANSWER_MILLIS * 1_000_000L;
        while (System.nanoTime() - deadline < 0) {
            engine.rollbackPoint();
            if (link.awaitJobEnd(5)) {
                return;
            }
        }
    }

    /**
     * Whether a difference between twins may roll this job back in place (the same answer on every process: the
     * job's options): comparison on and not --sdc abort, coordinators to ask, and fthp-run holding the replicated
     * ranks' output back to the verified epoch.
     */
    public static boolean mayRollBackInPlace(Engine engine) {
        return engine.coordinatorLink() != null && "on".equals(modeOrOn()) && RankOutput.gatedRanks() > 0;
    }

    private static String modeOrOn() {
        String mode = System.getenv(SendDigest.MODE_ENV);
        return mode == null || mode.isBlank() ? "on" : mode.strip();
    }

    private void tally() {
        write();
    }

    private void tallyMismatch() {
        mismatches++;
        write();
    }

    /**
     * {@code sdc-INCARNATION.GENERATION-NATIVE}: logical rank, role, comparisons, unchecked, mismatches (a line
     * fthp-run sums; one file per engine, a relaunch's or a rollback in place's, so a rolled-back run's mismatch stays
     * counted).
     */
    private void write() {
        String dir = System.getenv(STATS_DIR_ENV);
        if (dir == null) {
            return;
        }
        try {
            Files.writeString(Path.of(dir, "sdc-" + engine.incarnation().restart() + "." + engine.generation() + "-"
                            + engine.nativeRank()),
                    engine.logicalRank() + " " + engine.role() + " " + comparisons + " " + unchecked + " "
                            + mismatches + "\n");
        } catch (IOException e) {
            // the summary misses this copy's tally; the comparison itself stands
        }
    }
}
