package mpi;

/**
 * A (short, int) pair, laid out as the C struct behind MPI.SHORT_INT:
 * value at byte 0, int index at byte 4 (LP64), extent padded to the C
 * struct size so arrays of pairs line up with the predefined type.
 * Only the {@code MPI.shortInt} instance exists; use it with MPI.SHORT_INT and
 * MPI.MINLOC / MPI.MAXLOC.
 */
public final class ShortInt extends Struct {

    private final int sSize;
    private final int iOff;
    private final int iSize;
    private final int valueOff;

    protected ShortInt(int shortSize, int intOff, int intSize) {
        sSize = shortSize;
        iOff = intOff;
        iSize = intSize;
        valueOff = addIntegral(shortSize);
        setOffset(iOff);
        addIntegral(iSize);
        alignExtent(Math.max(sSize, iSize));
    }

    @Override
    protected ShortInt.Data newData() {
        return new Data();
    }

    /** One (value, index) pair. */
    public final class Data extends Struct.Data {

        public short getValue() {
            return (short) getIntegral(valueOff, sSize);
        }

        public int getIndex() {
            return (int) getIntegral(iOff, iSize);
        }

        public void putValue(short v) {
            putIntegral(valueOff, sSize, v);
        }

        public void putIndex(int v) {
            putIntegral(iOff, iSize, v);
        }
    }
}
