package mpi;

/**
 * The outcome of a receive or probe, in the program's terms: the logical source
 * rank, the user's tag, and the payload size without the FTHP header.
 */
public final class Status {

    // fields, not Open MPI's long[] (which its JNI fills): a receive makes one of these, one object less each
    private int source;
    private int tag;
    private int error;
    private boolean cancelled;
    /** Payload bytes received (the FTHP header not counted). */
    private long bytes;
    private int index;

    protected Status() {
    }

    Status(int source, int tag, int error, boolean cancelled, long bytes, int index) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.bytes = bytes;
        this.index = index;
    }

    Status withIndex(int index) {
        this.index = index;
        return this;
    }

    /** Whole items of {@code datatype} received; MPI.UNDEFINED if the bytes end inside one (0 for an empty type). */
    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        long size = datatype.layoutChecked().size();
        if (size == 0) {
            return 0;
        }
        long items = bytes / size;
        return bytes % size == 0 && items <= Integer.MAX_VALUE ? (int) items : MPI.UNDEFINED;
    }

    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    /**
     * Basic elements received (a struct's members, a vector's items), as
     * MPI_Get_elements counts them; MPI.UNDEFINED if the received bytes end
     * inside an element or the count exceeds an int.
     */
    public int getElements(Datatype datatype) throws MPIException {
        MPI.check();
        long elements = datatype.layoutChecked().elementsIn(bytes);
        return elements < 0 || elements > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) elements;
    }

    public Count getElementsX(Datatype datatype) throws MPIException {
        MPI.check();
        long elements = datatype.layoutChecked().elementsIn(bytes);
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
        bytes = datatype.layoutChecked().bytesOfElements(count.getCount());
    }

    public void setCancelled(boolean flag) throws MPIException {
        MPI.check();
        cancelled = flag;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getError() {
        return error;
    }

    public int getIndex() {
        return index;
    }
}
