package mpi;

import java.nio.ByteBuffer;

/**
 * A user-defined reduction (MPI_Op_create). Override one of the two call
 * methods: the array variant is simpler, the ByteBuffer variant avoids copies.
 * Either computes {@code inOutVec[i] = inVec[i] op inOutVec[i]}.
 */
public abstract class UserFunction {

    /**
     * Array-style reduction: receives primitive arrays of the datatype's base
     * kind (byte[] for struct and pair types), each {@code count * extent}
     * elements long.
     */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("Not supported yet.");
    }

    /**
     * Buffer-style reduction. The default copies both buffers into arrays of
     * the datatype's base kind (in the buffers' byte order), calls the array
     * variant, and writes the result back into {@code inOut}. Positions and
     * limits of the buffers are neither used nor changed: data starts at index 0.
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        int n = count * datatype.getExtent(); // extent is in base-type units
        ByteBuffer src = fromStart(in);
        ByteBuffer dst = fromStart(inOut);
        switch (datatype.baseType) {
            case Datatype.BYTE, Datatype.PACKED, Datatype.INT2, Datatype.SHORT_INT, Datatype.LONG_INT,
                    Datatype.FLOAT_INT, Datatype.DOUBLE_INT -> {
                byte[] a = new byte[n];
                byte[] b = new byte[n];
                src.get(0, a);
                dst.get(0, b);
                call(a, b, count, datatype);
                dst.put(0, b);
            }
            case Datatype.BOOLEAN -> {
                boolean[] a = toBooleans(src, n);
                boolean[] b = toBooleans(dst, n);
                call(a, b, count, datatype);
                for (int i = 0; i < n; i++) {
                    dst.put(i, (byte) (b[i] ? 1 : 0));
                }
            }
            case Datatype.CHAR -> {
                char[] a = new char[n];
                char[] b = new char[n];
                src.asCharBuffer().get(0, a);
                dst.asCharBuffer().get(0, b);
                call(a, b, count, datatype);
                dst.asCharBuffer().put(0, b);
            }
            case Datatype.SHORT -> {
                short[] a = new short[n];
                short[] b = new short[n];
                src.asShortBuffer().get(0, a);
                dst.asShortBuffer().get(0, b);
                call(a, b, count, datatype);
                dst.asShortBuffer().put(0, b);
            }
            case Datatype.INT -> {
                int[] a = new int[n];
                int[] b = new int[n];
                src.asIntBuffer().get(0, a);
                dst.asIntBuffer().get(0, b);
                call(a, b, count, datatype);
                dst.asIntBuffer().put(0, b);
            }
            case Datatype.LONG -> {
                long[] a = new long[n];
                long[] b = new long[n];
                src.asLongBuffer().get(0, a);
                dst.asLongBuffer().get(0, b);
                call(a, b, count, datatype);
                dst.asLongBuffer().put(0, b);
            }
            case Datatype.FLOAT, Datatype.FLOAT_COMPLEX -> {
                float[] a = new float[n];
                float[] b = new float[n];
                src.asFloatBuffer().get(0, a);
                dst.asFloatBuffer().get(0, b);
                call(a, b, count, datatype);
                dst.asFloatBuffer().put(0, b);
            }
            case Datatype.DOUBLE, Datatype.DOUBLE_COMPLEX -> {
                double[] a = new double[n];
                double[] b = new double[n];
                src.asDoubleBuffer().get(0, a);
                dst.asDoubleBuffer().get(0, b);
                call(a, b, count, datatype);
                dst.asDoubleBuffer().put(0, b);
            }
            default -> throw new IllegalArgumentException("Unsupported datatype.");
        }
    }

    /** A view of the whole buffer from index 0 that keeps its byte order (duplicate() would reset it). */
    private static ByteBuffer fromStart(ByteBuffer buffer) {
        return buffer.duplicate().clear().order(buffer.order());
    }

    private static boolean[] toBooleans(ByteBuffer buffer, int n) {
        boolean[] values = new boolean[n];
        for (int i = 0; i < n; i++) {
            values[i] = buffer.get(i) != 0;
        }
        return values;
    }
}
