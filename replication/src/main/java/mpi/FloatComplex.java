package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one float complex number (real, imaginary pair) inside a buffer,
 * for data sent as MPI.FLOAT_COMPLEX. Reads and writes go straight to the
 * buffer; the view holds no copy.
 */
public final class FloatComplex {

    private final int offset; // in floats: two per complex number
    private final FloatBuffer buffer;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /** Uses the byte buffer's byte order. */
    public static FloatComplex get(ByteBuffer buffer) {
        return new FloatComplex(buffer.asFloatBuffer(), 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(offset);
    }

    public float getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(float real) {
        buffer.put(offset, real);
    }

    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /**
     * The buffer starting at this number, to pass to communication calls.
     * Unlike MPI.slice, this leaves the original buffer's position and limit alone.
     */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.duplicate().clear().position(offset).slice();
    }
}
