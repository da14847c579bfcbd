package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.error.MpiError;
import org.fthp.replication.staging.HeapCopy;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.twins.TwinLink;

/**
 * A native nonblocking collective over staged data: whoever builds it stages
 * the inputs, starts the native call with {@link #requestSlot()}, and gives
 * the step that unpacks the outputs once the native request completes.
 *
 * <p>A collective of a communicator is numbered and logged with a copy of
 * its staged bytes as they were at the start, so after a failure it can be
 * started again on the new communicators (if it was in flight) or replayed
 * for members that had not completed it.
 */
public final class CollectiveOp extends NativeOp {

    /** Starts a native operation that belongs to no communicator's collectives, writing its request into {@code request}. */
    @FunctionalInterface
    public interface Start {
        void start(MemorySegment request);
    }

    /** What a promoted replica runs instead of a native call it never made (see {@link #asComputational}). */
    @FunctionalInterface
    public interface Alternative {
        /** Starts it on {@code now}; {@code wantOutput} is false for a replay, whose output nobody reads. */
        NativeOp start(CommStructure now, boolean wantOutput);
    }

    /** Starts the native collective on {@code collective} (the communicator's computational copies). */
    @FunctionalInterface
    public interface CollectiveStart {
        void start(long collective, MemorySegment request);
    }

    private final List<Staged> staged = new ArrayList<>(4);
    private Runnable finish;
    private CommStructure comm;
    private long sequence;
    private Staged output;
    private CollectiveStart recipe;
    private byte[][] snapshot;
    /** On a replica: how its computational twin ran this collective, should it be promoted. */
    private Alternative asComputational;
    /** Run again for members that missed it: its output is not wanted. */
    private boolean replay;

    public CollectiveOp(OpContext context) {
        super(context);
    }

    /**
     * Every buffer its native call writes is its own staging ({@link #stage}), copied out to the program only by
     * its completion: abandoned unfinished, it cannot change what the program sees.
     */
    @Override
    boolean onlyReadsProgramMemory() {
        return true;
    }

    /**
     * Left as it is: MPI_Cancel of a nonblocking collective's request is erroneous, and abandoned unfinished it
     * cannot change what the program sees ({@link #onlyReadsProgramMemory}).
     */
    @Override
    void cancelForRollback() {
    }

    /** Staging memory owned by this operation until it completes. */
    public Staged stage(long bytes) {
        Staged s = new Staged(pool.acquire(Math.max(bytes, 1)), Math.max(bytes, 1));
        staged.add(s);
        return s;
    }

    public CollectiveOp start(Start start, Runnable finish) {
        this.finish = finish;
        start.start(requestSlot());
        return this;
    }

    /**
     * Starts a collective of the program on {@code comm}: the computational
     * copies run it natively; a replica instead receives its twin's packed
     * {@code output} (what {@code finish} unpacks), so both unpack the same
     * bytes — bitwise-identical results whatever the operation and however
     * many ranks have replicas.
     */
    public CollectiveOp start(CommStructure comm, Staged output, CollectiveStart start, Runnable finish) {
        return start(comm, context.collectiveLogs().of(comm.commId()).begin(), output, start, finish);
    }

    /** As {@link #start(CommStructure, Staged, CollectiveStart, Runnable)}, with a sequence number already drawn. */
    public CollectiveOp start(CommStructure comm, long sequence, Staged output, CollectiveStart start,
                              Runnable finish) {
        this.comm = comm;
        this.sequence = sequence;
        this.output = output;
        this.recipe = start;
        this.finish = finish;
        if (context.collectiveLogs().keepsEntries()) {
            takeSnapshot();
            long logged = 0;
            for (byte[] b : snapshot) {
                logged += b.length;
            }
            context.collectiveLogs().of(comm.commId()).log(sequence, this::replayOn, logged);
        }
        launch(comm, comm.nextDecisionTag());
        return this;
    }

    /**
     * On a replica whose twin ran something else than this operation's
     * native call (a small allreduce by recursive doubling): what to run
     * instead if the replica is promoted before its twin's result comes.
     */
    public CollectiveOp asComputational(Alternative alternative) {
        this.asComputational = alternative;
        return this;
    }

    private void launch(CommStructure s, int twinTag) {
        TwinLink twin = replay ? null : s.twin();
        if (twin == null) {
            recipe.start(s.cmp(), requestSlot());
        } else if (twin.follows()) {
            followTwin(twin, twinTag, output == null ? null : output.seg());
        } else {
            forwardWhenDone(twin, twinTag, output == null ? null : output.seg());
            recipe.start(s.cmp(), requestSlot());
        }
    }

    private void takeSnapshot() {
        snapshot = new byte[staged.size()][];
        for (int i = 0; i < staged.size(); i++) {
            Staged s = staged.get(i);
            snapshot[i] = HeapCopy.of(s.seg(), s.bytes());
        }
    }

    /** Moves the staged memory to fresh segments holding the bytes the collective started with. */
    private List<Staged> restage() {
        for (int i = 0; i < staged.size(); i++) {
            Staged s = staged.get(i);
            MemorySegment fresh = pool.acquire(s.bytes());
            MemorySegment.copy(snapshot[i], 0, fresh, ValueLayout.JAVA_BYTE, 0, snapshot[i].length);
            s.moveTo(fresh);
        }
        return staged;
    }

    private CollectiveOp copyFor(CommStructure now, boolean asReplay) {
        CollectiveOp next = new CollectiveOp(context);
        next.staged.addAll(restage());
        next.comm = now;
        next.sequence = sequence;
        next.output = output;
        next.recipe = recipe;
        next.snapshot = snapshot;
        next.finish = asReplay ? null : finish;
        next.replay = asReplay;
        // a replica's stand-in must survive a repair that does not promote it: the next one may
        next.asComputational = asComputational;
        return next;
    }

    private NativeOp replayOn(CommStructure now) {
        if (asComputational != null) {
            restage();
            return asComputational.start(now, false);
        }
        CollectiveOp again = copyFor(now, true);
        again.launch(now, -1);
        return again;
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }

    /**
     * In flight when a process failed: started again on the new
     * communicators, with its original input and decision number, after the
     * replays that precede it.
     */
    @Override
    protected NativeOp reissue() {
        if (comm == null) {
            throw new MpiError(MpiError.ERR_OTHER, "a communicator was being created when a process failed");
        }
        CommStructure now = comm.current();
        context.collectiveLogs().of(comm.commId()).replayBefore(sequence, now);
        boolean promoted = followingTwin() && (now.twin() == null || !now.twin().follows());
        if (promoted && asComputational != null) {
            restage();
            return asComputational.start(now, true);
        }
        CollectiveOp next = copyFor(now, false);
        next.launch(now, twinTag());
        return next;
    }

    /** For collectives with nothing to do natively (e.g. zero members involved). */
    public CollectiveOp completeNow(Runnable finish) {
        this.finish = finish;
        completeLocally();
        return this;
    }

    @Override
    protected void onComplete() {
        if (comm != null) {
            context.collectiveLogs().of(comm.commId()).completed(sequence);
        }
        if (finish != null) {
            finish.run();
        }
    }

    @Override
    protected void releaseBuffers() {
        // the handles stay: a replay moves them to fresh memory
        for (Staged s : staged) {
            pool.release(s.seg());
        }
    }
}
