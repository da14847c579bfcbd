package org.fthp.replication.creation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import org.fthp.empi.Empi;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.failure.Coordination;
import org.fthp.replication.failure.FailureWatch;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.progress.YieldingIdleStrategy;
import org.fthp.replication.routing.Membership;
import org.fthp.replication.tags.InternalTags;

/**
 * A communicator the program creates while processes may die: the native
 * communicators are made by blocking calls (MPI 3.1), so a member that dies
 * before entering one would leave the others inside it for good. In a
 * replicated job every such creation is an attempt that either completes on
 * every member or is abandoned by every member, then made again after the
 * repair over who is live.
 *
 * <p>Three nonblocking messages among the members' copies, on the control
 * communicator, tagged by the attempt's epoch:
 * <ul>
 *   <li>READY among every copy of every member as the attempt starts (the
 *       blocking calls are one-sided, so without it one side could say
 *       DONE before the other had reached the creation), and before each
 *       blocking call among those in it: the wait for a late member happens
 *       here, where a failure set can still abandon the attempt;
 *   <li>DONE after the last call: the attempt completes once every member
 *       still live has said DONE (a dead one's silence counts as DONE: it had
 *       passed every call its members needed, or someone would be waiting
 *       for its READY);
 *   <li>ABORT from a member that gave up, to all: whoever has not completed
 *       gives up too.
 * </ul>
 * A member gives up on a failure set that arrives while it progresses a
 * nonblocking step (an idup). In a READY round it gives up only once the
 * round cannot complete (a peer not heard from died, or began a repair
 * instead: {@code ControlExchange#peerLeft}), never on another process's
 * death or an ABORT alone: a peer that said READY may be inside the call
 * already, and only the others joining it gets it out. After DONE it gives
 * up only on an ABORT. Completing needs every live
 * member's DONE, and a member that gave up never sends it, so an attempt
 * never completes for some members and not others. Repairs wait until the
 * attempt is settled: none runs in the middle of one.
 *
 * <p>A death inside a blocking call, after its READY exchange, still wedges
 * the members in it (Open MPI 4.1 cannot abandon the call); those stop after
 * a grace period (failure.BlockingCalls).
 */
public final class CommCreation {

    private final Membership membership;
    /** The engine's own communicator of this generation; NONE without replicas. */
    private final ControlComm controlComm;
    private final Coordination coordination;
    /** Its turns repair a failure set that arrived (when no attempt runs) and progress the rest. */
    private final DutyCycle duty;
    /** The attempt running now (the program's thread, gate held), or null. */
    private Attempt current;

    /** Thrown inside an attempt that is given up; caught where the attempt began. */
    private static final class Abandoned extends RuntimeException {
        Abandoned() {
            super(null, null, false, false);
        }
    }

    public CommCreation(Membership membership, ControlComm controlComm, Coordination coordination, DutyCycle duty) {
        this.membership = membership;
        this.controlComm = controlComm;
        this.coordination = coordination;
        this.duty = duty;
    }

    /**
     * Builds a communicator with {@code build} (which makes the native
     * communicators through {@link Structures}), again after a repair as
     * often as a failure abandons the attempt.
     */
    public <T> T attempt(Supplier<T> build) {
        if (current != null || coordination.watch() == null || !controlComm.exists()) {
            return build.get();
        }
        while (true) {
            // no attempt runs now: a turn of the duty repairs a failure set that arrived, so the attempt starts
            // over who is live
            duty.doWork();
            Attempt a = new Attempt(membership.appliedEpoch());
            current = a;
            try {
                T made = build.get();
                a.sayDone();
                current = null;
                a.finish();
                return made;
            } catch (Abandoned e) {
                current = null;
                a.tellAbandoned();
                a.finish();
                // the failure that made someone give up reaches every process: wait for it (progress repairs it
                // as soon as it is here, now that no attempt runs), then try again over who is live
                FailureWatch watch = coordination.watch();
                DutyCycle.await(() -> watch.epoch() > a.epoch, duty::doWork, new YieldingIdleStrategy());
            } catch (RuntimeException | Error e) {
                current = null;
                throw e;
            }
        }
    }

    /** Whether an attempt is running: a failure set does not start a repair then, it abandons the attempt. */
    public boolean active() {
        return current != null;
    }

    /** From a progress loop inside an attempt (an idup of the new communicators) when a failure set arrived. */
    public void failureArrived() {
        current.giveUpUnlessDone();
    }

    /** At the start of the attempt's native calls: every copy of every member (native ranks), told if it gives up. */
    public void members(int[] copies) {
        current.copies = copies.clone();
    }

    /** Before a blocking call of the attempt that waits for {@code involved} (native ranks). */
    public void ready(int[] involved) {
        current.exchange(InternalTags.CREATION_READY, involved, false);
    }

    /** One attempt: its epoch, its rounds and ABORT receive (cancelled at the end), whether DONE went out. */
    private final class Attempt {
        private final long epoch;
        /** The ABORT receive and the ABORT sends; freed at the end unless this attempt sent ABORT. */
        private final Arena arena = Arena.ofShared();
        private final List<ControlExchange> rounds = new ArrayList<>();
        private final MemorySegment abortRequest;
        private final MemorySegment flag;
        private final MemorySegment status;
        private int[] copies = new int[0];
        private boolean saidDone;
        private boolean saidAbort;

        Attempt(long epoch) {
            this.epoch = epoch;
            flag = arena.allocate(ValueLayout.JAVA_INT);
            status = arena.allocate(Empi.STATUS_BYTES);
            abortRequest = Empi.allocateHandles(arena, 1);
            Empi.irecv(arena.allocate(8), 8, Empi.BYTE, Empi.ANY_SOURCE, InternalTags.CREATION_ABORT.tag(epoch),
                    controlComm.handle(), abortRequest);
        }

        /**
         * After the attempt's last native call: DONE to and from every copy
         * of every member; nothing if this process made no native
         * communicator (it holds no copy of a member).
         */
        void sayDone() {
            if (copies.length > 0) {
                exchange(InternalTags.CREATION_DONE, copies, true);
            }
        }

        void giveUpUnlessDone() {
            if (!saidDone) {
                throw new Abandoned();
            }
        }

        /**
         * Sends to and awaits a message from every other process of {@code
         * peers}; gives up on an ABORT, or on a failure set before DONE.
         * For DONE, a dead peer's message is not awaited.
         */
        void exchange(InternalTags.Range range, int[] peers, boolean isDone) {
            if (isDone) {
                saidDone = true;
            }
            ControlExchange round = new ControlExchange(controlComm, membership.nativeRank(), peers,
                    range.tag(epoch),
                    epoch);
            rounds.add(round);
            FailureWatch watch = coordination.watch();
            IntPredicate excused = isDone ? r -> watch.latest().deadNativeRanks().contains(r) : r -> false;
            DutyCycle.await(() -> {
                if (round.heardFromAll(excused)) {
                    return true;
                }
                if (!isDone) {
                    // a peer that said READY may be inside the call already: leave only when the round cannot
                    // complete (an ABORT or another process's death is no reason: those in the call would stay)
                    FailureWatch.Snapshot latest = watch.latest();
                    if (latest.epoch() > epoch && round.peerLeft(latest.deadNativeRanks(), epoch, latest.epoch())) {
                        throw new Abandoned();
                    }
                    return false;
                }
                Empi.test(abortRequest, flag, status);
                if (flag.get(ValueLayout.JAVA_INT, 0) != 0) {
                    throw new Abandoned();
                }
                return false;
            }, () -> 0, new YieldingIdleStrategy());
        }

        /** Tells every copy of every member that this one gave up (fire and forget: some may be dead). */
        void tellAbandoned() {
            saidAbort = true;
            MemorySegment payload = arena.allocate(8);
            MemorySegment requests = Empi.allocateHandles(arena, Math.max(copies.length, 1));
            for (int k = 0; k < copies.length; k++) {
                if (copies[k] != membership.nativeRank()) {
                    Empi.isend(payload, 8, Empi.BYTE, controlComm.rank(copies[k]),
                            InternalTags.CREATION_ABORT.tag(epoch), controlComm.handle(),
                            Empi.handleSlot(requests, k));
                }
            }
        }

        /**
         * Cancels what was never matched (a dead peer's DONE, the ABORT that
         * never came): a receive left posted would take a later attempt's
         * message of the same epoch.
         */
        void finish() {
            rounds.forEach(ControlExchange::close);
            ControlExchange.cancelReceive(abortRequest, flag, status);
            if (!saidAbort) {
                arena.close(); // an ABORT sent to a dead copy keeps pointing here: only then is it kept
            }
        }
    }
}
