package mpi;

import org.fthp.replication.collective.Combine;
import org.fthp.replication.collective.InlineAllreduce;
import org.fthp.replication.collective.Reducer;
import org.fthp.replication.collective.Region;
import org.fthp.replication.collective.Roots;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;

/**
 * The program's reduction calls, in its terms: checks the arguments, turns buffers and
 * datatypes into the engine's regions and the operation into a
 * {@link Reducer} (the operation as a function on packed items, and for a
 * predefined one its native handles), then starts the engine's reduction
 * ({@code collective.Reductions}).
 */
final class ReductionCalls {

    private ReductionCalls() {}

    /**
     * The operation on packed items of {@code type}, made once per operation and datatype in a row (a loop
     * reduces the same type again and again: four objects less per call). A user function's MPIException
     * leaves the engine's completion step as an {@link UncheckedMpi}, which the facade's error handling
     * unwraps.
     */
    private static Reducer reducer(Op op, Datatype type) throws MPIException {
        Reducer made = op.reducerFor(type);
        if (made == null) {
            made = make(op, type);
            op.keepReducer(type, made);
        }
        return made;
    }

    private static Reducer make(Op op, Datatype type) throws MPIException {
        Combine combine = (in, inout, count) -> {
            try {
                op.applyLocal(in, inout, count, type);
            } catch (MPIException e) {
                throw new UncheckedMpi(e);
            }
        };
        return op.isUser() ? Reducer.user(combine)
                : Reducer.predefined(combine, type::nativeBase, op::nativeOp, Op.baseItems(type));
    }

    static NativeOp reduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root,
                           boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        Collectives.checkRoot(s, root);
        op.checked();
        boolean isRoot = Roots.isRoot(s, root);
        boolean sends = Roots.contributes(s, root);
        Region out = isRoot ? Collectives.region(recvbuf, 0, count, type) : null;
        Region in = !sends ? null : inPlace && isRoot ? out : Collectives.region(sendbuf, 0, count, type);
        int bytes = Args.bytes(count * Args.type(type).size());
        return org.fthp.replication.collective.Reductions.reduce(Collectives.ops(), s, root, in, out, bytes, count,
                reducer(op, type));
    }

    /**
     * Starts an allreduce, or for a {@code blocking} one that a job without replicas runs inside the call
     * ({@link InlineAllreduce}), does it and returns null. A nonblocking one never runs inline: the program may
     * overlap it with the very sends its peers wait for.
     */
    static NativeOp allReduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                              boolean inPlace, boolean blocking) throws MPIException {
        CommStructure s = comm.live();
        op.checked();
        Region out = Collectives.region(recvbuf, 0, count, type);
        Region in = inPlace ? out : Collectives.region(sendbuf, 0, count, type);
        int bytes = Args.bytes(count * Args.type(type).size());
        Engine engine = Engine.get();
        if (blocking) {
            InlineAllreduce inline = engine.inlineAllreduce();
            if (inline.takes(s, bytes)) {
                inline.run(s, in, out, bytes, count, reducer(op, type).combine());
                return null;
            }
        }
        return org.fthp.replication.collective.Reductions.allReduce(engine.ops(), s, in, out, bytes, count,
                reducer(op, type));
    }

    static NativeOp reduceScatter(Comm comm, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op,
                                  boolean inPlace) throws MPIException {
        CommStructure s = comm.live();
        op.checked();
        int size = s.size();
        Args.counts(recvcounts, null, size);
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += recvcounts[i];
        }
        Region in = Collectives.region(inPlace ? recvbuf : sendbuf, 0, Args.bytes(total), type);
        Region out = Collectives.region(recvbuf, 0, recvcounts[s.rank()], type);
        int bytes = Args.bytes(total * Args.type(type).size());
        return org.fthp.replication.collective.Reductions.reduceScatter(Collectives.ops(), s, in, bytes, out,
                recvcounts, reducer(op, type));
    }

    static NativeOp reduceScatterBlock(Comm comm, Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op,
                                       boolean inPlace) throws MPIException {
        int[] counts = new int[comm.live().size()];
        java.util.Arrays.fill(counts, recvcount);
        return reduceScatter(comm, sendbuf, recvbuf, counts, type, op, inPlace);
    }

    /** Inclusive ({@code exclusive == false}) or exclusive prefix reduction. */
    static NativeOp scan(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                         boolean inPlace, boolean exclusive) throws MPIException {
        CommStructure s = comm.live();
        op.checked();
        Region out = Collectives.region(recvbuf, 0, count, type);
        Region in = inPlace ? out : Collectives.region(sendbuf, 0, count, type);
        int bytes = Args.bytes(count * Args.type(type).size());
        return org.fthp.replication.collective.Reductions.scan(Collectives.ops(), s, in, out, bytes, count,
                reducer(op, type), exclusive);
    }

    static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        op.checked();
        Region in = Collectives.region(inBuf, 0, count, type);
        Region inout = Collectives.region(inOutBuf, 0, count, type);
        int bytes = Args.bytes(in.bytes());
        org.fthp.replication.collective.Reductions.reduceLocal(Collectives.ops(), in, inout, bytes, count,
                reducer(op, type).combine());
    }
}
