package mpi;

/** The MPI standard version the library implements (MPI_Get_version). */
public final class Version {

    private final int version;
    private final int subVersion;

    protected Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    public int getVersion() {
        return version;
    }

    public int getSubVersion() {
        return subVersion;
    }

    @Override
    public String toString() {
        return version + "." + subVersion;
    }
}
