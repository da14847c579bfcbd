package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import org.fthp.empi.Empi;
import org.fthp.replication.collective.Reducer;

/**
 * A reduction operation. Predefined operations run in the native library on
 * staged data; user operations run in Java, in rank order, so the result does
 * not depend on how the native library would split or order the work.
 */
public final class Op implements Freeable {

    private static final String[] NATIVE_NAMES = {
        null, "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND", "MPI_LOR",
        "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"
    };

    protected final UserFunction uf;
    protected long handle;
    private final boolean commute;
    private final int code;
    private Datatype datatype;
    private boolean freed;
    /** The reducer made last, with its datatype (one immutable pair: a racing call sees all of it or none). */
    private TypedReducer lastReducer;

    private record TypedReducer(Datatype type, Reducer reducer) {}

    protected Op(int type) {
        this.uf = null;
        this.code = type;
        this.commute = true;
    }

    public Op(UserFunction function, boolean commute) {
        this.uf = function;
        this.code = 0;
        this.commute = commute;
    }

    protected void setDatatype(Datatype t) {
        this.datatype = t;
    }

    /** Applies a user function: {@code inoutvec = invec op inoutvec}, in the binding's calling convention. */
    protected void call(Object invec, Object inoutvec, int count) throws MPIException {
        if (datatype.baseType == Datatype.BOOLEAN) {
            uf.call(invec, inoutvec, count, datatype);
        } else {
            uf.call(((java.nio.ByteBuffer) invec).order(ByteOrder.nativeOrder()),
                    ((java.nio.ByteBuffer) inoutvec).order(ByteOrder.nativeOrder()), count, datatype);
        }
    }

    public boolean isCommutative() {
        return commute;
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        if (uf == null) {
            throw Errors.error(MPI.ERR_OP, "a predefined operation cannot be freed");
        }
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    /** The reducer kept for {@code type} ({@link #keepReducer}), or null. */
    Reducer reducerFor(Datatype type) {
        TypedReducer last = lastReducer;
        return last != null && last.type() == type ? last.reducer() : null;
    }

    void keepReducer(Datatype type, Reducer reducer) {
        lastReducer = new TypedReducer(type, reducer);
    }

    boolean isUser() {
        return uf != null;
    }

    Op checked() throws MPIException {
        if (freed) {
            throw Errors.error(MPI.ERR_OP, "operation has been freed");
        }
        return this;
    }

    long nativeOp() {
        if (handle == 0) {
            handle = Empi.handle(NATIVE_NAMES[code]);
        }
        return handle;
    }

    /**
     * {@code inout[i] = in[i] op inout[i]} over {@code count} items laid out
     * contiguously in staging memory.
     */
    void applyLocal(MemorySegment in, MemorySegment inout, int count, Datatype type) throws MPIException {
        if (count == 0) {
            return;
        }
        if (uf == null) {
            Empi.reduceLocalPredefined(in, inout, count * baseItems(type), type.nativeBase(), nativeOp());
            return;
        }
        setDatatype(type);
        if (type.baseType == Datatype.BOOLEAN) {
            int n = (int) in.byteSize();
            boolean[] a = new boolean[n];
            boolean[] b = new boolean[n];
            for (int i = 0; i < n; i++) {
                a[i] = in.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != 0;
                b[i] = inout.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != 0;
            }
            call(a, b, count);
            for (int i = 0; i < n; i++) {
                inout.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, b[i] ? (byte) 1 : 0);
            }
        } else {
            call(in.asByteBuffer(), inout.asByteBuffer(), count);
        }
    }

    /** Base elements per item of a (packed) derived type. */
    static int baseItems(Datatype type) throws MPIException {
        long size = type.layoutChecked().size();
        return (int) (size / type.layoutChecked().base().bytes());
    }
}
