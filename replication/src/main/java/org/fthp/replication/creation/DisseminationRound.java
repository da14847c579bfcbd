package org.fthp.replication.creation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.replication.control.ControlComm;

/**
 * "Everyone is here" among many processes in {@code ceil(log2 n)} steps, a dissemination barrier: in step k each
 * process tells the one 2^k after it (in the round's order of native ranks) and hears from the one 2^k before it,
 * so that once its last step is heard every process has arrived. Each process posts log2 n messages where a
 * {@link ControlExchange} posts n - 1, which at 10^5 processes is the difference between microseconds and a
 * second per round. Nonblocking like it: the caller polls {@link #heardFromAll} and may leave ({@link #close}).
 *
 * <p>One tag serves every step and every round of a sequence: a step's source is different for each step, and a
 * process's rounds with the same peer come in the same order on both sides (their rounds precede collective
 * creations), so the non-overtaking rule matches each message to its own receive.
 */
public final class DisseminationRound implements ArrivalRound {

    private final Arena arena = Arena.ofConfined();
    private final ControlComm comm;
    private final int tag;
    /** The native ranks this process tells and hears from, step by step. */
    private final int[] next;
    private final int[] previous;
    private final MemorySegment receives;
    private final MemorySegment sends;
    private final MemorySegment inbox;
    private final MemorySegment outbox;
    private final MemorySegment flag;
    private final MemorySegment status;
    /** The step whose message this process waits for; {@code next.length} once all were heard. */
    private int step;
    private boolean closed;

    /** Starts the round among {@code processes} (native ranks, {@code me} among them), under {@code tag}. */
    public DisseminationRound(ControlComm comm, int me, int[] processes, int tag) {
        this.comm = comm;
        this.tag = tag;
        int[] order = Arrays.stream(processes).distinct().sorted().toArray();
        int n = order.length;
        int self = Arrays.binarySearch(order, me);
        if (self < 0) {
            throw new IllegalArgumentException("native rank " + me + " is not in the round");
        }
        int steps = 0;
        while ((1 << steps) < n) {
            steps++;
        }
        next = new int[steps];
        previous = new int[steps];
        for (int k = 0; k < steps; k++) {
            next[k] = order[(self + (1 << k)) % n];
            previous[k] = order[((self - (1 << k)) % n + n) % n];
        }
        int slots = Math.max(steps, 1);
        receives = Empi.allocateHandles(arena, slots);
        sends = Empi.allocateHandles(arena, slots);
        inbox = arena.allocate(slots);
        outbox = arena.allocate(1);
        flag = arena.allocate(ValueLayout.JAVA_INT);
        status = arena.allocate(Empi.STATUS_BYTES);
        if (steps > 0) {
            post(0);
        }
    }

    /** Steps a round among {@code n} processes takes. */
    public int steps() {
        return next.length;
    }

    private void post(int k) {
        Empi.irecv(inbox.asSlice(k, 1), 1, Empi.BYTE, comm.rank(previous[k]), tag, comm.handle(),
                Empi.handleSlot(receives, k));
        Empi.isend(outbox, 1, Empi.BYTE, comm.rank(next[k]), tag, comm.handle(), Empi.handleSlot(sends, k));
    }

    /** Whether every process has arrived: moves on through the steps whose messages came. */
    @Override
    public boolean heardFromAll() {
        while (step < next.length) {
            Empi.test(Empi.handleSlot(receives, step), flag, status);
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return false;
            }
            step++;
            if (step < next.length) {
                post(step);
            }
        }
        return true;
    }

    /**
     * Cancels the receive still posted (a later round with the same tag must not be taken by it) and frees the
     * round's memory if all its sends have completed; else (a peer died before matching one) it stays allocated.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (step < next.length) {
            ControlExchange.cancelReceive(Empi.handleSlot(receives, step), flag, status);
        }
        int posted = Math.min(step + 1, next.length);
        for (int k = 0; k < posted; k++) {
            try {
                Empi.test(Empi.handleSlot(sends, k), flag, status);
                if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                    return;
                }
            } catch (EmpiException e) {
                return;
            }
        }
        arena.close();
    }
}
