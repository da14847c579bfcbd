package mpi;

/** An MPI object whose resources the user releases explicitly. */
public interface Freeable {

    /** Releases the object (MPI_*_FREE); it must not be used afterwards. */
    void free() throws MPIException;
}
