package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one double complex number (real, imaginary pair) inside a buffer,
 * for data sent as MPI.DOUBLE_COMPLEX. Reads and writes go straight to the
 * buffer; the view holds no copy.
 */
public final class DoubleComplex {

    private final int offset; // in doubles: two per complex number
    private final DoubleBuffer buffer;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    public static DoubleComplex get(DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    public static DoubleComplex get(double[] array) {
        return new DoubleComplex(DoubleBuffer.wrap(array), 0);
    }

    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /** Uses the byte buffer's byte order. */
    public static DoubleComplex get(ByteBuffer buffer) {
        return new DoubleComplex(buffer.asDoubleBuffer(), 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(offset);
    }

    public double getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(double real) {
        buffer.put(offset, real);
    }

    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /**
     * The buffer starting at this number, to pass to communication calls.
     * Unlike MPI.slice, this leaves the original buffer's position and limit alone.
     */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.duplicate().clear().position(offset).slice();
    }
}
