package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;

import org.fthp.replication.staging.HeapCopy;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.twins.TwinLink;

/**
 * Allreduce of a small vector by recursive doubling over point-to-point
 * messages on the communicator's internal channel: one exchange per doubling
 * step instead of a native nonblocking collective's schedule
 * ({@link DoublingSchedule}: who, when, under which tag).
 *
 * <p>Every combination puts the lower rank's operand first, and every rank
 * combines the same operands in the same bracketing, so the result has the
 * same bits everywhere, and non-commutative operations keep rank order. An
 * operation that throws fails the reduction without cutting the schedule short
 * ({@link DoublingOutcome}): the exception reaches the program when the
 * exchanges are done.
 */
public final class RecursiveDoublingAllreduce extends NativeOp {

    /** {@code inout = in op inout} on {@code bytes} of packed items. */
    @FunctionalInterface
    public interface Combiner {
        void combine(MemorySegment in, MemorySegment inout);
    }

    private final CommStructure comm;
    private final Combiner combiner;
    private final int bytes;
    private final int rank;
    private final int size;
    private final int tagBase;
    private final long sequence;
    /** This rank's contribution as first packed, kept for a repeat after a failure. */
    private final byte[] input;
    private final java.util.function.Consumer<RecursiveDoublingAllreduce> finish;
    /** This rank's value and the one received, each with the room for the failure byte after the vector. */
    private MemorySegment acc;
    private MemorySegment other;
    /** The vectors alone, which the operation sees. */
    private MemorySegment accVector;
    private MemorySegment otherVector;
    private final DoublingOutcome outcome = new DoublingOutcome();
    private int phase;   // 0: fold in, 1..steps: doubling, steps+1: hand back, then done
    private final int steps;

    /**
     * Starts an allreduce of {@code bytes} of packed items: {@code pack} fills
     * {@link #input()} with this rank's contribution, {@code finish} takes
     * {@link #result()} once every rank's has been combined. The allreduce is
     * collective number {@code sequence} of its communicator.
     */
    public RecursiveDoublingAllreduce(OpContext context, CommStructure comm, int bytes, long sequence,
                                      Combiner combiner, java.util.function.Consumer<RecursiveDoublingAllreduce> pack,
                                      java.util.function.Consumer<RecursiveDoublingAllreduce> finish) {
        this(context, comm, bytes, sequence, combiner, pack, finish, null,
                comm.nextDecisionTag());
    }

    /**
     * @param input   the contribution as it was first packed (a repeat after a failure), or null
     * @param twinTag the decision number under which the result goes to the replica, or -1
     */
    private RecursiveDoublingAllreduce(OpContext context, CommStructure comm, int bytes, long sequence,
                                       Combiner combiner, java.util.function.Consumer<RecursiveDoublingAllreduce> pack,
                                       java.util.function.Consumer<RecursiveDoublingAllreduce> finish, byte[] input,
                                       int twinTag) {
        super(context, 2L * DoublingOutcome.room(bytes));
        this.comm = comm;
        this.combiner = combiner;
        this.bytes = bytes;
        this.sequence = sequence;
        this.rank = comm.rank();
        this.size = comm.size();
        this.steps = DoublingSchedule.steps(size);
        this.tagBase = DoublingSchedule.tagBase(sequence);
        this.finish = finish;
        int room = DoublingOutcome.room(bytes);
        this.acc = staging().asSlice(0, room);
        this.other = staging().asSlice(room, room);
        this.accVector = acc.asSlice(0, bytes);
        this.otherVector = other.asSlice(0, bytes);
        TwinLink twin = comm.twin();
        if (twin != null && twinTag >= 0) {
            forwardWhenDone(twin, twinTag, null);
        }
        if (input == null) {
            pack.accept(this);
            if (context.collectiveLogs().keepsEntries()) {
                this.input = HeapCopy.of(acc, bytes);
                context.collectiveLogs().of(comm.commId()).log(sequence, this::replayOn, bytes);
            } else {
                this.input = null;   // never repeated: without replicas a failure ends the job
            }
        } else {
            this.input = input;
            MemorySegment.copy(input, 0, acc, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes);
        }
        if (size == 1) {
            completeLocally();
            return;
        }
        phase = -1;
        if (!advance()) {
            completeLocally();
        }
    }

    /** The same allreduce with the same contribution on a repaired communicator, for members that missed it. */
    private NativeOp replayOn(CommStructure now) {
        return new RecursiveDoublingAllreduce(context, now, bytes, sequence, combiner, null, null, input, -1);
    }

    /**
     * A replica promoted before its twin's result came runs the allreduce
     * itself: collective {@code sequence}, with the contribution it packed.
     */
    public static NativeOp promoted(OpContext context, CommStructure now, int bytes, long sequence, Combiner combiner,
                                    byte[] input, java.util.function.Consumer<RecursiveDoublingAllreduce> finish) {
        context.collectiveLogs().of(now.commId()).replayBefore(sequence, now);
        return new RecursiveDoublingAllreduce(context, now, bytes, sequence, combiner, null, finish, input, -1);
    }

    /** Where the caller packs this rank's contribution. */
    public MemorySegment input() {
        return accVector;
    }

    /** The replica gets the reduced vector, or word that the reduction failed and how. */
    @Override
    protected MemorySegment twinPayload() {
        return outcome.twinPayload(acc, bytes);
    }

    /** The reduced vector, once the operation is complete. */
    public MemorySegment result() {
        return accVector;
    }

    /** The computational copies' communicator numbers them in rank order. */
    private int nativeRank(int logical) {
        return logical;
    }

    private void exchange(int peer, int tag) {
        receive(other, peer, tag, requestSlot());
        send(peer, tag, secondRequestSlot());
    }

    private void send(int peer, int tag, MemorySegment request) {
        outcome.send(acc, bytes, nativeRank(peer), tag, comm.internal(), request);
    }

    private void receive(MemorySegment into, int peer, int tag, MemorySegment request) {
        DoublingOutcome.receive(into, bytes, nativeRank(peer), tag, comm.internal(), request);
    }

    /**
     * Combines what just arrived from {@code peer} with this rank's value, lower rank's operand first, unless
     * the reduction has failed (here, or at a peer whose message says so).
     */
    private void absorb(int peer) {
        outcome.received(other, bytes);
        if (!outcome.healthy()) {
            return;
        }
        try {
            if (DoublingSchedule.theirsFirst(rank, peer)) {
                combiner.combine(otherVector, accVector);   // acc = theirs op mine
            } else {
                combiner.combine(accVector, otherVector);   // other = mine op theirs
                MemorySegment t = acc;
                acc = other;
                other = t;
                t = accVector;
                accVector = otherVector;
                otherVector = t;
            }
        } catch (RuntimeException e) {
            outcome.failed(e);
        }
    }

    /** Moves to the next phase that needs communication and starts it; false when the reduction is done. */
    private boolean advance() {
        boolean foldsOut = DoublingSchedule.foldsOut(rank, size);
        boolean foldsIn = DoublingSchedule.foldsIn(rank, size);
        while (true) {
            phase++;
            if (phase == 0) {
                if (foldsOut) {
                    // give my value to rank+1, then wait for the result at the end
                    send(rank + 1, tagBase, requestSlot());
                    return true;
                }
                if (foldsIn) {
                    receive(other, rank - 1, tagBase, requestSlot());
                    return true;
                }
                continue;
            }
            if (phase <= steps) {
                if (foldsOut) {
                    continue;
                }
                exchange(DoublingSchedule.partner(rank, size, phase), DoublingSchedule.stepTag(tagBase, phase));
                return true;
            }
            if (phase == steps + 1) {
                int resultTag = DoublingSchedule.resultTag(tagBase);
                if (foldsIn) {
                    send(rank - 1, resultTag, requestSlot());
                    return true;
                }
                if (foldsOut) {
                    receive(acc, rank + 1, resultTag, requestSlot());
                    return true;
                }
                continue;
            }
            return false;
        }
    }

    @Override
    protected boolean startNextPhase() {
        if (phase == 0 && DoublingSchedule.foldsIn(rank, size)) {
            absorb(rank - 1);
        } else if (phase >= 1 && phase <= steps) {
            absorb(DoublingSchedule.partner(rank, size, phase));
        } else if (phase == steps + 1 && DoublingSchedule.foldsOut(rank, size)) {
            outcome.received(acc, bytes);   // the result handed back, or word that the reduction failed
        }
        return advance();
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    /** In flight at a failure: started again on the new communicators, after the replays before it. */
    @Override
    protected NativeOp reissue() {
        CommStructure now = comm.current();
        context.collectiveLogs().of(comm.commId()).replayBefore(sequence, now);
        return new RecursiveDoublingAllreduce(context, now, bytes, sequence, combiner, null, finish, input,
                now.twin() == null ? -1 : twinTag());
    }

    @Override
    protected void onComplete() {
        context.collectiveLogs().of(comm.commId()).completed(sequence);
        outcome.end();
        if (finish != null) {
            finish.accept(this);
        }
    }
}
