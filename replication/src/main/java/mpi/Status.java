package mpi;

/**
 * The outcome of a receive or probe, in the program's terms: the logical source
 * rank, the user's tag, and the payload size without the FTHP header.
 */
public final class Status {

    /** [0] source, [1] tag, [2] error, [3] cancelled, [4] payload bytes, [5] index. */
    protected final long[] data = new long[6];

    protected Status() {
    }

    Status(int source, int tag, int error, boolean cancelled, long bytes, int index) {
        data[0] = source;
        data[1] = tag;
        data[2] = error;
        data[3] = cancelled ? 1 : 0;
        data[4] = bytes;
        data[5] = index;
    }

    Status withIndex(int index) {
        data[5] = index;
        return this;
    }

    /** Whole items of {@code datatype} received; MPI.UNDEFINED if the bytes end inside one (0 for an empty type). */
    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        long size = datatype.layoutChecked().size();
        if (size == 0) {
            return 0;
        }
        long items = data[4] / size;
        return data[4] % size == 0 && items <= Integer.MAX_VALUE ? (int) items : MPI.UNDEFINED;
    }

    public boolean isCancelled() throws MPIException {
        MPI.check();
        return data[3] != 0;
    }

    /**
     * Basic elements received (a struct's members, a vector's items), as
     * MPI_Get_elements counts them; MPI.UNDEFINED if the received bytes end
     * inside an element or the count exceeds an int.
     */
    public int getElements(Datatype datatype) throws MPIException {
        MPI.check();
        long elements = datatype.layoutChecked().elementsIn(data[4]);
        return elements < 0 || elements > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) elements;
    }

    public Count getElementsX(Datatype datatype) throws MPIException {
        MPI.check();
        long elements = datatype.layoutChecked().elementsIn(data[4]);
        return new Count(elements < 0 ? MPI.UNDEFINED : elements);
    }

    /** Makes this status say {@code count} basic elements of {@code datatype} arrived (MPI_Status_set_elements). */
    public void setElements(Datatype datatype, int count) throws MPIException {
        setElementsX(datatype, new Count(count));
    }

    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        MPI.check();
        if (count.getCount() < 0) {
            throw Errors.error(MPI.ERR_COUNT, "negative count " + count.getCount());
        }
        data[4] = datatype.layoutChecked().bytesOfElements(count.getCount());
    }

    public void setCancelled(boolean flag) throws MPIException {
        MPI.check();
        data[3] = flag ? 1 : 0;
    }

    public int getSource() {
        return (int) data[0];
    }

    public int getTag() {
        return (int) data[1];
    }

    public int getError() {
        return (int) data[2];
    }

    public int getIndex() {
        return (int) data[5];
    }
}
