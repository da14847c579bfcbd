package mpi;

import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.tags.TagBound;

/**
 * Argument checks made before anything reaches native code: a bad rank, tag,
 * count, datatype or buffer becomes an {@link MPIException} of the matching
 * error class instead of a native crash or silent corruption.
 */
final class Args {

    /**
     * Largest user tag (reported as the TAG_UB attribute): 2^30-1, or the
     * native library's own bound when that is lower (MPICH: 2^28-1), since a
     * program's tag goes to the library as it is (tags.TagBound).
     */
    static int tagUb() {
        Engine engine = Engine.get();
        return engine == null ? TagBound.FACADE_TAG_UB : engine.tagBound().userTagUb();
    }

    private Args() {}

    static void count(int count) throws MPIException {
        if (count < 0) {
            throw Errors.error(MPI.ERR_COUNT, "negative count " + count);
        }
    }

    /** Tags every MPI library accepts (its TAG_UB is at least this): valid without asking the engine its bound. */
    static final int ALWAYS_VALID_TAGS = 32_767;

    static void sendTag(int tag) throws MPIException {
        if (tag >= 0 && tag <= ALWAYS_VALID_TAGS) {
            return;
        }
        int tagUb = tagUb();
        if (tag < 0 || tag > tagUb) {
            throw Errors.error(MPI.ERR_TAG, "invalid tag " + tag + " (must be 0.." + tagUb + ")");
        }
    }

    static void recvTag(int tag) throws MPIException {
        if (tag == MPI.ANY_TAG || tag >= 0 && tag <= ALWAYS_VALID_TAGS) {
            return;
        }
        int tagUb = tagUb();
        if (tag < 0 || tag > tagUb) {
            throw Errors.error(MPI.ERR_TAG, "invalid tag " + tag + " (must be 0.." + tagUb + " or MPI.ANY_TAG)");
        }
    }

    static void dest(int rank, int peers) throws MPIException {
        if (rank != MPI.PROC_NULL && (rank < 0 || rank >= peers)) {
            throw Errors.error(MPI.ERR_RANK, "invalid rank " + rank + " (communicator has " + peers + " ranks)");
        }
    }

    static void source(int rank, int peers) throws MPIException {
        if (rank != MPI.ANY_SOURCE) {
            dest(rank, peers);
        }
    }

    static void root(int root, int size) throws MPIException {
        if (root < 0 || root >= size) {
            throw Errors.error(MPI.ERR_ROOT, "invalid root " + root + " (communicator has " + size + " ranks)");
        }
    }

    static TypeLayout type(Datatype type) throws MPIException {
        if (type == null) {
            throw Errors.error(MPI.ERR_TYPE, "datatype is null");
        }
        return type.layoutForCommunication();
    }

    /**
     * Wraps {@code buf} for {@code count} items of {@code type} starting at
     * byte {@code startByte}, checking that they fit.
     */
    static UserBuffer buffer(Object buf, long startByte, long count, Datatype type) throws MPIException {
        TypeLayout layout = type(type);
        if (count < 0) {
            throw Errors.error(MPI.ERR_COUNT, "negative count " + count);
        }
        return buffer(buf, startByte, count, layout);
    }

    /**
     * As {@link #buffer(Object, long, long, Datatype)}, for a datatype and a
     * count already checked ({@link #type}, {@link #count}).
     */
    static UserBuffer buffer(Object buf, long startByte, long count, TypeLayout layout) throws MPIException {
        if (buf == null) {
            if (count == 0 || layout.size() == 0) {
                return null;
            }
            throw Errors.error(MPI.ERR_BUFFER, "null buffer for " + count + " items");
        }
        Engine engine = Engine.get();
        UserBuffer ub = engine != null ? engine.recentBuffers().of(buf) : UserBuffer.of(buf);
        if (ub == null) {
            throw Errors.error(MPI.ERR_BUFFER, "buffer must be a primitive array or a java.nio.Buffer, got "
                    + buf.getClass().getName());
        }
        // raw bytes, as in Open MPI's binding: any array type with any datatype, only the bytes must fit
        if (count > 0 && layout.size() > 0) {
            long first = startByte + UserBuffer.firstByte(count, layout);
            long end = startByte + UserBuffer.span(count, layout);
            if (first < -ub.bytesBefore() || end > ub.bytes()) {
                throw Errors.error(MPI.ERR_BUFFER, count + " items of this datatype touch bytes " + first + ".."
                        + end + " from the buffer's start, outside the " + (ub.bytesBefore() + ub.bytes())
                        + " bytes of its array" + (ub.bytesBefore() > 0 ? " (which starts " + ub.bytesBefore()
                        + " bytes before)" : ""));
            }
        }
        return ub;
    }

    /**
     * Checks that {@code buf} holds {@code count} items of {@code layout} from its start; returns their payload bytes
     * when {@code buf} is a primitive array other than {@code boolean[]} that holds them densely (what the engine's
     * shallow path takes), else -1 (a buffer, a {@code boolean[]}, a type with holes: checked by wrapping it). For a
     * send to a process ({@code toProcess}: not PROC_NULL) the payload must also fit a native count with the FTHP
     * header. One method: the program's every blocking send and receive runs it, interpreted at first.
     */
    static long arrayPayload(Object buf, int count, TypeLayout layout, boolean toProcess) throws MPIException {
        long bytes = count * layout.size();
        long arrayBytes = buf instanceof byte[] a ? a.length
                : buf instanceof double[] a ? (long) a.length << 3
                : buf instanceof int[] a ? (long) a.length << 2
                : buf instanceof long[] a ? (long) a.length << 3
                : buf instanceof float[] a ? (long) a.length << 2
                : buf instanceof char[] a ? (long) a.length << 1
                : buf instanceof short[] a ? (long) a.length << 1
                : -1;
        if (arrayBytes >= 0 && bytes <= arrayBytes && bytes <= SendOp.MAX_PAYLOAD_BYTES && layout.isDense()) {
            return bytes;
        }
        buffer(buf, UserBuffer.START, count, layout);   // wrapped and checked
        if (toProcess) {
            payload(bytes);
        }
        return -1;
    }

    /** A byte count a native call takes as an {@code int}: larger is an error of the message's size. */
    static int bytes(long bytes) throws MPIException {
        if (bytes > Integer.MAX_VALUE) {
            throw Errors.error(MPI.ERR_COUNT, "message of " + bytes + " bytes is larger than 2 GiB");
        }
        return (int) bytes;
    }

    /** A send's payload: with the FTHP header in front it must fit a native {@code int} count. */
    static void payload(long bytes) throws MPIException {
        if (bytes > SendOp.MAX_PAYLOAD_BYTES) {
            throw Errors.error(MPI.ERR_ARG, "message of " + bytes + " bytes is larger than 2 GiB");
        }
    }

    static void direct(java.nio.Buffer buf) throws MPIException {
        if (buf != null && !buf.isDirect()) {
            throw Errors.error(MPI.ERR_BUFFER, "The buffer must be direct.");
        }
    }

    static void counts(int[] counts, int[] displs, int peers) throws MPIException {
        if (counts == null || counts.length < peers) {
            throw Errors.error(MPI.ERR_COUNT, "counts array needs " + peers + " entries");
        }
        if (displs != null && displs.length < peers) {
            throw Errors.error(MPI.ERR_ARG, "displacements array needs " + peers + " entries");
        }
        for (int i = 0; i < peers; i++) {
            count(counts[i]);
        }
    }
}
