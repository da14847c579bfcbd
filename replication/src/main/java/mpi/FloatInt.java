package mpi;

/**
 * A (float, int) pair, laid out as the C struct behind MPI.FLOAT_INT:
 * value at byte 0, int index at byte 4 (LP64), extent padded to the C
 * struct size so arrays of pairs line up with the predefined type.
 * Only the {@code MPI.floatInt} instance exists; use it with MPI.FLOAT_INT and
 * MPI.MINLOC / MPI.MAXLOC.
 */
public final class FloatInt extends Struct {

    private final int iOff;
    private final int iSize;
    private final int valueOff;

    protected FloatInt(int intOff, int intSize) {
        iOff = intOff;
        iSize = intSize;
        valueOff = addFloat();
        setOffset(iOff);
        addIntegral(iSize);
        alignExtent(Math.max(4, iSize));
    }

    @Override
    protected FloatInt.Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {

        public float getValue() {
            return getFloat(valueOff);
        }

        public int getIndex() {
            return (int) getIntegral(iOff, iSize);
        }

        public void putValue(float v) {
            putFloat(valueOff, v);
        }

        public void putIndex(int v) {
            putIntegral(iOff, iSize, v);
        }
    }
}
