package mpi;

/**
 * A (double, int) pair, laid out as the C struct behind MPI.DOUBLE_INT:
 * value at byte 0, int index at byte 8 (LP64), extent padded to the C
 * struct size so arrays of pairs line up with the predefined type.
 * Only the {@code MPI.doubleInt} instance exists; use it with MPI.DOUBLE_INT and
 * MPI.MINLOC / MPI.MAXLOC.
 */
public final class DoubleInt extends Struct {

    private final int iOff;
    private final int iSize;
    private final int valueOff;

    protected DoubleInt(int intOff, int intSize) {
        iOff = intOff;
        iSize = intSize;
        valueOff = addDouble();
        setOffset(iOff);
        addIntegral(iSize);
        alignExtent(Math.max(8, iSize));
    }

    @Override
    protected DoubleInt.Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {

        public double getValue() {
            return getDouble(valueOff);
        }

        public int getIndex() {
            return (int) getIntegral(iOff, iSize);
        }

        public void putValue(double v) {
            putDouble(valueOff, v);
        }

        public void putIndex(int v) {
            putIntegral(iOff, iSize, v);
        }
    }
}
