package org.fthp.replication.collective;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

import org.fthp.empi.Empi;
import org.fthp.replication.ops.CollectiveLog;
import org.fthp.replication.ops.CollectiveLogs;
import org.fthp.replication.ops.DoublingOutcome;
import org.fthp.replication.ops.DoublingSchedule;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.staging.OpBlock;
import org.fthp.replication.staging.StagingPool;
import org.fthp.replication.structure.CommStructure;

/**
 * A small blocking allreduce of a job without replicas, run inside the call:
 * recursive doubling over the communicator's internal channel, the same
 * messages under the same tags as {@code ops.RecursiveDoublingAllreduce}
 * ({@link DoublingSchedule}), but as a straight sequence of exchanges in the
 * caller, without the operation object, its capturing callbacks and its
 * place in the list of operations in flight. Such a job never replays a
 * collective (a lost rank ends the run, or restarts it from a checkpoint), so
 * there is no input to keep and nothing to forward to a twin.
 *
 * <p>The dot products of an iterative solver are this call: one double, a few
 * hundred nanoseconds, once or twice per iteration.
 *
 * <p>An operation that throws fails the reduction without cutting the
 * schedule short, as in the operation ({@link DoublingOutcome}): every rank
 * still makes all its exchanges, then throws.
 *
 * <p>One per engine. Only the gate's holder uses it, one call at a time: the
 * block whose requests are in flight is a plain field, which the waits test
 * through {@link #getAsBoolean}. A wait takes turns of the engine's duty,
 * which runs no program collective, so {@link #takes} refuses a second call
 * only as a guard.
 */
public final class InlineAllreduce implements BooleanSupplier {

    private final StagingPool pool;
    private final CollectiveLogs<NativeOp> logs;
    private final DutyCycle duty;
    /** The block of the call under way (null between calls), and how many of its requests are in flight. */
    private OpBlock block;
    private int inFlight;
    private final DoublingOutcome outcome = new DoublingOutcome();

    public InlineAllreduce(OpContext context, DutyCycle duty) {
        this.pool = context.pool();
        this.logs = context.collectiveLogs();
        this.duty = duty;
    }

    /**
     * Whether a blocking allreduce of {@code bytes} packed bytes on {@code s} runs here: the job keeps no
     * collective for replay (it has no replicas), the communicator is an intracommunicator, and the vector is
     * small enough for recursive doubling.
     */
    public boolean takes(CommStructure s, int bytes) {
        return !logs.keepsEntries() && !s.isInter() && bytes <= Reductions.SMALL_ALLREDUCE_BYTES && block == null;
    }

    /**
     * Combines every rank's {@code in} ({@code bytes} of {@code count} packed items) with {@code combine} and
     * unpacks the result into {@code out}; returns when this rank has it.
     */
    public void run(CommStructure s, Region in, Region out, int bytes, int count, Combine combine) {
        CollectiveLog<NativeOp> log = logs.of(s.commId());
        long sequence = log.begin();
        int rank = s.rank();
        int size = s.size();
        int tagBase = DoublingSchedule.tagBase(sequence);
        long comm = s.internal();
        int room = DoublingOutcome.room(bytes);
        OpBlock b = pool.acquireBlock(2L * room);
        block = b;
        outcome.reset();
        try {
            // this rank's value and the one received, each with room for the failure byte after the vector,
            // and the vectors alone, which the operation sees
            MemorySegment acc = b.staging().asSlice(0, room);
            MemorySegment other = b.staging().asSlice(room, room);
            MemorySegment accVector = acc.asSlice(0, bytes);
            MemorySegment otherVector = other.asSlice(0, bytes);
            in.packInto(acc, 0);
            if (DoublingSchedule.foldsOut(rank, size)) {
                // give my value to rank+1, then wait for the result
                outcome.send(acc, bytes, rank + 1, tagBase, comm, b.request());
                awaitRequests(1);
                DoublingOutcome.receive(acc, bytes, rank + 1, DoublingSchedule.resultTag(tagBase), comm, b.request());
                awaitRequests(1);
                outcome.received(acc, bytes);
            } else {
                if (DoublingSchedule.foldsIn(rank, size)) {
                    DoublingOutcome.receive(other, bytes, rank - 1, tagBase, comm, b.request());
                    awaitRequests(1);
                    absorbed(otherVector, accVector, other, bytes, count, combine);   // the lower rank's first
                }
                int steps = DoublingSchedule.steps(size);
                for (int step = 1; step <= steps; step++) {
                    int peer = DoublingSchedule.partner(rank, size, step);
                    int tag = DoublingSchedule.stepTag(tagBase, step);
                    DoublingOutcome.receive(other, bytes, peer, tag, comm, b.request());
                    outcome.send(acc, bytes, peer, tag, comm, b.request2());
                    awaitRequests(2);
                    if (DoublingSchedule.theirsFirst(rank, peer)) {
                        absorbed(otherVector, accVector, other, bytes, count, combine);
                    } else if (absorbed(accVector, otherVector, other, bytes, count, combine)) {
                        MemorySegment t = acc;   // the combination is in other
                        acc = other;
                        other = t;
                        t = accVector;
                        accVector = otherVector;
                        otherVector = t;
                    }
                }
                if (DoublingSchedule.foldsIn(rank, size)) {
                    outcome.send(acc, bytes, rank - 1, DoublingSchedule.resultTag(tagBase), comm, b.request());
                    awaitRequests(1);
                }
            }
            log.completed(sequence);   // its messages are all through, whether the operation failed or not
            outcome.end();
            out.unpackFrom(acc, 0);
        } finally {
            block = null;
            // a native request still in flight (its test threw) may yet write into the block: never reused
            if (inFlight == 0) {
                pool.release(b);
            }
            inFlight = 0;
        }
    }

    /**
     * {@code inout = in op inout}, {@code in} the lower rank's vector, once the message just received into
     * {@code received} says its sender has not failed. Returns whether it combined: not once the reduction has
     * failed, here or there.
     */
    private boolean absorbed(MemorySegment in, MemorySegment inout, MemorySegment received, int bytes, int count,
                             Combine combine) {
        outcome.received(received, bytes);
        if (!outcome.healthy()) {
            return false;
        }
        try {
            combine.apply(in, inout, count);
            return true;
        } catch (RuntimeException e) {
            outcome.failed(e);
            return false;
        }
    }

    /** Waits, taking turns of the engine's duty, until the {@code requests} just started on the block complete. */
    private void awaitRequests(int requests) {
        inFlight = requests;
        duty.awaitCollective(this);
    }

    /** Tests the requests in flight once: whether they are all done. */
    @Override
    public boolean getAsBoolean() {
        OpBlock b = block;
        if (inFlight == 2) {
            Empi.testall(2, b.requests(), b.flag(), b.statuses());
        } else {
            Empi.test(b.request(), b.flag(), b.status());
        }
        if (b.flag().get(ValueLayout.JAVA_INT, 0) == 0) {
            return false;
        }
        inFlight = 0;
        return true;
    }
}
