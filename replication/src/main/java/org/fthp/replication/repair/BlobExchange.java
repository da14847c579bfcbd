package org.fthp.replication.repair;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

import org.fthp.empi.Empi;
import org.fthp.replication.control.ControlComm;
import org.fthp.replication.progress.BusySpinIdleStrategy;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.progress.IdleStrategy;

/**
 * One all-to-all of byte blobs of any length among survivors, in one round of
 * point-to-point messages on the control communicator: each blob goes as a
 * message of its own length, and each is received once a probe has seen it
 * and told its size. (A nonblocking alltoall of the counts and then an
 * alltoallv of the bytes took two rounds, each waiting for the survivor last
 * to be scheduled on an oversubscribed node.) A repair uses it for what
 * every survivor must tell every other (its receive records, and who holds
 * which communicator when that did not fit the agreement). Each wait goes
 * through the repair's own {@link Waiter}, so a newer failure set abandons
 * it; the native memory of an abandoned exchange is then left allocated,
 * never reused while the library may still read or write it. Each exchange
 * has a tag of its own (by epoch), so an abandoned one's messages are never
 * taken by a later one.
 */
final class BlobExchange {

    /** Waits until {@code done} says so, or abandons by throwing. */
    interface Waiter {
        void await(BooleanSupplier done);
    }

    private final Waiter waiter;

    BlobExchange(Waiter waiter) {
        this.waiter = waiter;
    }

    /**
     * Sends {@code blobs[i]} to native rank {@code natives[i]} (this
     * process, {@code me}, is one of them) on {@code control} with {@code tag};
     * returns what each sent here, by the same index.
     */
    byte[][] exchange(byte[][] blobs, int[] natives, int me, ControlComm control, int tag) {
        int n = natives.length;
        long comm = control.handle();
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = control.rank(natives[i]);
        }
        Arena arena = Arena.ofShared();
        MemorySegment sends = Empi.allocateHandles(arena, n);
        MemorySegment receives = Empi.allocateHandles(arena, n);
        MemorySegment message = Empi.allocateHandles(arena, 1);
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = arena.allocate(Empi.STATUS_BYTES);
        MemorySegment scratch = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment[] into = new MemorySegment[n];
        byte[][] in = new byte[n][];
        boolean[] sent = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (natives[i] == me) {
                in[i] = blobs[i].clone();
                sent[i] = true;
                continue;
            }
            MemorySegment out = arena.allocate(Math.max(1, blobs[i].length));
            MemorySegment.copy(blobs[i], 0, out, ValueLayout.JAVA_BYTE, 0, blobs[i].length);
            Empi.isend(out, blobs[i].length, Empi.BYTE, ranks[i], tag, comm, Empi.handleSlot(sends, i));
        }
        waiter.await(() -> {
            boolean all = true;
            for (int i = 0; i < n; i++) {
                if (in[i] != null) {
                    continue;
                }
                if (into[i] == null) {
                    // not matched yet: its size comes with the probe that matches it
                    Empi.improbe(ranks[i], tag, comm, flag, message, status);
                    if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                        all = false;
                        continue;
                    }
                    int bytes = Empi.statusBytes(status, 0, scratch);
                    into[i] = arena.allocate(Math.max(1, bytes)).asSlice(0, bytes);
                    Empi.imrecv(into[i], bytes, Empi.BYTE, message, Empi.handleSlot(receives, i));
                }
                if (completed(Empi.handleSlot(receives, i), flag, status)) {
                    in[i] = into[i].toArray(ValueLayout.JAVA_BYTE);
                } else {
                    all = false;
                }
            }
            return all;
        });
        // the peers' messages are here, so they are alive and matched ours (or will: a small send is buffered)
        waiter.await(() -> {
            for (int i = 0; i < n; i++) {
                if (!sent[i]) {
                    sent[i] = completed(Empi.handleSlot(sends, i), flag, status);
                    if (!sent[i]) {
                        return false;
                    }
                }
            }
            return true;
        });
        arena.close();
        return in;
    }

    /**
     * At start-up: one message to this process itself, taken as a repair
     * takes its messages (a probe, the message's tag and size, a matched
     * probe and receive), on {@code control} with {@code tag}, which no repair
     * uses. The first call of each of these native functions links its
     * downcall, milliseconds each, which a repair's survivors would otherwise
     * pay while the others wait for them (seen in the replica's drain of its
     * twin's decisions). Gives up after {@code patienceNanos}, leaving the
     * memory allocated.
     */
    static void warmUp(ControlComm control, int nativeRank, int tag, long patienceNanos) {
        long comm = control.handle();
        int me = control.rank(nativeRank);
        Arena arena = Arena.ofConfined();
        MemorySegment send = Empi.allocateHandles(arena, 1);
        MemorySegment receive = Empi.allocateHandles(arena, 1);
        MemorySegment message = Empi.allocateHandles(arena, 1);
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = arena.allocate(Empi.STATUS_BYTES);
        MemorySegment scratch = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
        MemorySegment in = arena.allocate(ValueLayout.JAVA_LONG);
        long end = System.nanoTime() + patienceNanos;
        IdleStrategy spin = new BusySpinIdleStrategy();
        Empi.isend(out, 8, Empi.BYTE, me, tag, comm, send);
        DutyCycle.awaitUntil(() -> {
            Empi.iprobe(me, tag, comm, flag, status);
            return flag.get(ValueLayout.JAVA_INT, 0) != 0;
        }, end, DutyCycle::noWork, spin);
        Empi.statusTag(status, 0);
        boolean matched = DutyCycle.awaitUntil(() -> {
            Empi.improbe(me, tag, comm, flag, message, status);
            return flag.get(ValueLayout.JAVA_INT, 0) != 0;
        }, end, DutyCycle::noWork, spin);
        if (!matched) {
            return; // never in practice: the send to itself stays posted, and its memory with it
        }
        int bytes = Empi.statusBytes(status, 0, scratch);
        Empi.imrecv(in, bytes, Empi.BYTE, message, receive);
        if (DutyCycle.awaitUntil(() -> completed(receive, flag, status) & completed(send, flag, status), end,
                DutyCycle::noWork, spin)) {
            arena.close();
        }
    }

    /** Whether the native request is done (tests it). */
    static boolean completed(MemorySegment request, MemorySegment flag, MemorySegment status) {
        Empi.test(request, flag, status);
        return flag.get(ValueLayout.JAVA_INT, 0) != 0;
    }
}
