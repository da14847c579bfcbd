package mpi;

/** A large element count (MPI_Count), as returned by Status.getElementsX. */
@SuppressWarnings("rawtypes") // Open MPI declares the raw Comparable; compareTo(Object) is its public API
public final class Count implements Comparable {

    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count other && other.count == count;
    }

    // Open MPI leaves hashCode alone; keeping it consistent with equals costs nothing.
    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    /** 1 if this count is larger, 0 if equal, -1 if smaller or obj is not a Count. */
    @Override
    public int compareTo(Object obj) {
        if (obj instanceof Count other) {
            return count > other.count ? 1 : count == other.count ? 0 : -1;
        }
        return -1;
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
