package mpi;

/**
 * What a communicator does with an error: abort the job (the MPI default) or
 * throw {@link MPIException} to the caller. Native communicators always return
 * errors; this choice is applied by the facade.
 */
public final class Errhandler {

    protected long handle;
    private final boolean fatal;

    protected Errhandler(long handle) {
        this.handle = handle;
        this.fatal = handle == FATAL;
    }

    static final long FATAL = 1;
    static final long RETURN = 2;

    protected static long getFatal() {
        return FATAL;
    }

    protected static long getReturn() {
        return RETURN;
    }

    boolean isFatal() {
        return fatal;
    }
}
