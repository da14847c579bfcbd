package org.fthp.replication.creation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import java.util.function.IntPredicate;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.tags.InternalTags;

/**
 * One round of "I am here" among a set of processes, on the control
 * communicator: an 8-byte message to every other process and one awaited
 * from each, all nonblocking, under one tag. The repair's agreement and
 * readiness, Finalize's barrier and a communicator creation's READY and DONE
 * are all such rounds; they differ only in when the caller gives up, which
 * stays with the caller: this class never waits.
 *
 * <p>Memory is what makes an abandoned round delicate: a receive still posted,
 * or a send to a process that died before matching it, keeps a native pointer
 * into it. {@link #close} cancels the receives and frees the memory only when
 * every send has completed too; otherwise the round's few dozen bytes stay
 * allocated for the rest of the process, which happens once per failure at
 * most. A round lives inside one call on one thread, so its arena is
 * confined: closing it needs no handshake with the process's other threads.
 */
public final class ControlExchange implements ArrivalRound {

    private final Arena arena = Arena.ofConfined();
    private final ControlComm comm;
    private final int[] peers;
    private final MemorySegment receives;
    private final MemorySegment sends;
    private final boolean[] heard;
    private final MemorySegment flag;
    private final MemorySegment status;
    /** What each peer sent, {@link #slotBytes} each, in the order of {@link #peers}. */
    private final MemorySegment theirs;
    private final int slotBytes;
    private boolean closed;

    /**
     * Posts the round: {@code value} to every process of {@code processes}
     * but {@code me} (native ranks), and a receive from each.
     */
    public ControlExchange(ControlComm comm, int me, int[] processes, int tag, long value) {
        this(comm, me, processes, tag, java.nio.ByteBuffer.allocate(Long.BYTES)
                .order(java.nio.ByteOrder.nativeOrder()).putLong(value).array(), Long.BYTES);
    }

    /**
     * Posts the round with a message of up to {@code slotBytes} bytes: every
     * process of the round must give the same {@code slotBytes}, which bounds
     * what each receives (a longer message would be an error on the receiving
     * side, so {@code mine} must fit).
     */
    public ControlExchange(ControlComm comm, int me, int[] processes, int tag, byte[] mine, int slotBytes) {
        if (mine.length > slotBytes) {
            throw new IllegalArgumentException(mine.length + " bytes do not fit a slot of " + slotBytes);
        }
        this.comm = comm;
        this.slotBytes = slotBytes;
        this.peers = java.util.Arrays.stream(processes).filter(r -> r != me).toArray();
        int n = Math.max(peers.length, 1);
        receives = Empi.allocateHandles(arena, n);
        sends = Empi.allocateHandles(arena, n);
        heard = new boolean[peers.length];
        flag = arena.allocate(ValueLayout.JAVA_INT);
        status = arena.allocate(Empi.STATUS_BYTES);
        MemorySegment sent = arena.allocate(Math.max(1, mine.length));
        MemorySegment.copy(mine, 0, sent, ValueLayout.JAVA_BYTE, 0, mine.length);
        theirs = arena.allocate((long) slotBytes * n);
        for (int k = 0; k < peers.length; k++) {
            int peer = comm.rank(peers[k]);
            Empi.irecv(theirs.asSlice((long) slotBytes * k, slotBytes), slotBytes, Empi.BYTE, peer, tag,
                    comm.handle(), Empi.handleSlot(receives, k));
            Empi.isend(sent, mine.length, Empi.BYTE, peer, tag, comm.handle(), Empi.handleSlot(sends, k));
        }
    }

    /** The processes of the round but this one, in the order {@link #message} numbers them. */
    public int[] peers() {
        return peers.clone();
    }

    /**
     * What peer {@code k} of {@link #peers} sent (zeros past its length),
     * once {@link #heardFromAll} said so; copied, so it outlives the round.
     */
    public java.nio.ByteBuffer message(int k) {
        if (!heard[k]) {
            throw new IllegalStateException("nothing heard from native rank " + peers[k] + " yet");
        }
        return java.nio.ByteBuffer.wrap(theirs.asSlice((long) slotBytes * k, slotBytes)
                .toArray(ValueLayout.JAVA_BYTE)).order(java.nio.ByteOrder.nativeOrder());
    }

    /** Whether every peer's message has arrived (tests the ones still missing). */
    @Override
    public boolean heardFromAll() {
        return heardFromAll(peer -> false);
    }

    /**
     * Whether every peer's message has arrived, not counting the peers
     * {@code excused} names (a dead one, whose silence the caller accepts).
     */
    public boolean heardFromAll(IntPredicate excused) {
        boolean all = true;
        for (int k = 0; k < peers.length; k++) {
            if (!heard[k]) {
                heard[k] = done(Empi.handleSlot(receives, k));
                if (!heard[k] && !excused.test(peers[k])) {
                    all = false;
                }
            }
        }
        return all;
    }

    /**
     * For a readiness round before a blocking native call, once a newer
     * failure set is known: whether the round can no longer complete. A peer
     * that said it is ready stays in the round (it may be inside the call
     * already, and only the others joining it gets it out), so it never
     * counts; one not heard from yet has left if it is among {@code dead}, or
     * if it began a repair's agreement (for an epoch in ({@code after},
     * {@code upTo}]) instead of saying it is ready: it will not say so before
     * that repair ends, which waits for this process. Every process of the
     * round sees the same (the dead are everyone's, an agreement goes to
     * every survivor), so either all leave the round or all complete it.
     */
    public boolean peerLeft(Set<Integer> dead, long after, long upTo) {
        for (int k = 0; k < peers.length; k++) {
            if (heard[k]) {
                continue;
            }
            if (dead.contains(peers[k])) {
                return true;
            }
            for (long e = after + 1; e <= upTo; e++) {
                Empi.iprobe(comm.rank(peers[k]), InternalTags.REPAIR_AGREE.tag(e), comm.handle(), flag, status);
                if (flag.get(ValueLayout.JAVA_INT, 0) != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Cancels every receive that has not matched (a later round with the same
     * tag must not be taken by it) and frees the round's memory if all its
     * sends have completed.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int k = 0; k < peers.length; k++) {
            if (!heard[k]) {
                cancelReceive(Empi.handleSlot(receives, k), flag, status);
            }
        }
        for (int k = 0; k < peers.length; k++) {
            try {
                if (!done(Empi.handleSlot(sends, k))) {
                    return; // a peer that died before matching it: the send keeps pointing here
                }
            } catch (EmpiException e) {
                return; // the library gave up on a send to a dead peer: nobody waits on it, keep its memory
            }
        }
        arena.close();
    }

    /**
     * Cancels a control receive that may never match (its sender died, or
     * never had a reason to send) and completes it, so a later message with
     * the same tag is not taken by it; nothing if it already completed.
     */
    public static void cancelReceive(MemorySegment request, MemorySegment flag, MemorySegment status) {
        if (Empi.getHandle(request, 0) == Empi.REQUEST_NULL) {
            return;
        }
        Empi.cancel(request);
        do {
            // a cancelled receive completes locally, at once
            Empi.test(request, flag, status);
        } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
    }

    private boolean done(MemorySegment request) {
        Empi.test(request, flag, status);
        return flag.get(ValueLayout.JAVA_INT, 0) != 0;
    }
}
