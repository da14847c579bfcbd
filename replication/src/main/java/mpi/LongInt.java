package mpi;

/**
 * A (long, int) pair, laid out as the C struct behind MPI.LONG_INT:
 * value at byte 0, int index at byte 8 (LP64), extent padded to the C
 * struct size so arrays of pairs line up with the predefined type.
 * Only the {@code MPI.longInt} instance exists; use it with MPI.LONG_INT and
 * MPI.MINLOC / MPI.MAXLOC.
 */
public final class LongInt extends Struct {

    private final int lSize;
    private final int iOff;
    private final int iSize;
    private final int valueOff;

    protected LongInt(int longSize, int intOff, int intSize) {
        lSize = longSize;
        iOff = intOff;
        iSize = intSize;
        valueOff = addIntegral(longSize);
        setOffset(iOff);
        addIntegral(iSize);
        alignExtent(Math.max(lSize, iSize));
    }

    @Override
    protected LongInt.Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {

        public long getValue() {
            return getIntegral(valueOff, lSize);
        }

        public int getIndex() {
            return (int) getIntegral(iOff, iSize);
        }

        public void putValue(long v) {
            putIntegral(valueOff, lSize, v);
        }

        public void putIndex(int v) {
            putIntegral(iOff, iSize, v);
        }
    }
}
