package mpi;

/**
 * A pair of ints, laid out as the C struct behind MPI.INT2:
 * value at byte 0, int index at byte 4 (LP64), extent padded to the C
 * struct size so arrays of pairs line up with the predefined type.
 * Only the {@code MPI.int2} instance exists; use it with MPI.INT2 and
 * MPI.MINLOC / MPI.MAXLOC.
 */
public final class Int2 extends Struct {

    private final int iOff;
    private final int iSize;
    private final int valueOff;

    protected Int2(int intOff, int intSize) {
        iOff = intOff;
        iSize = intSize;
        valueOff = addIntegral(intSize);
        setOffset(iOff);
        addIntegral(iSize);
        alignExtent(iSize);
    }

    @Override
    protected Int2.Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {

        public int getValue() {
            return (int) getIntegral(valueOff, iSize);
        }

        public int getIndex() {
            return (int) getIntegral(iOff, iSize);
        }

        public void putValue(int v) {
            putIntegral(valueOff, iSize, v);
        }

        public void putIndex(int v) {
            putIntegral(iOff, iSize, v);
        }
    }
}
