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

    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        long size = datatype.layoutChecked().size();
        if (size == 0) {
            return data[4] == 0 ? 0 : MPI.UNDEFINED;
        }
        return data[4] % size == 0 ? (int) (data[4] / size) : MPI.UNDEFINED;
    }

    public boolean isCancelled() throws MPIException {
        MPI.check();
        return data[3] != 0;
    }

    public int getElements(Datatype datatype) throws MPIException {
        MPI.check();
        int unit = datatype.baseSize;
        return unit == 0 ? 0 : (int) (data[4] / unit);
    }

    public Count getElementsX(Datatype datatype) throws MPIException {
        return new Count(getElements(datatype));
    }

    public void setElements(Datatype datatype, int count) throws MPIException {
        MPI.check();
        data[4] = (long) count * datatype.baseSize;
    }

    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        MPI.check();
        data[4] = count.getCount() * datatype.baseSize;
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
