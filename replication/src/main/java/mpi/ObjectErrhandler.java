package mpi;

import org.fthp.empi.Empi;
import org.fthp.replication.runtime.Engine;

/**
 * The error handler of a window or a file, applied by the facade as a
 * communicator's is ({@link Comm#fail}): ERRORS_ARE_FATAL aborts the job,
 * ERRORS_RETURN hands the exception to the caller.
 */
final class ObjectErrhandler {

    private Errhandler handler;

    ObjectErrhandler(Errhandler initial) {
        this.handler = initial;
    }

    void set(Errhandler h) throws MPIException {
        if (h == null) {
            throw apply(Errors.error(MPI.ERR_ARG, "error handler is null"));
        }
        this.handler = h;
    }

    Errhandler get() {
        return handler;
    }

    /** The exception for the caller to throw, after an abort if the handler is fatal. */
    MPIException apply(MPIException e) {
        if (handler.isFatal() && Engine.isInitialized() && !Engine.isFinalized()) {
            FatalErrors.abort(MPI.COMM_WORLD, e);
        }
        return e;
    }

    /** MPI_Win/File_call_errhandler: returns normally once a non-fatal handler has run (MPI 3.1 §8.3.6). */
    void call(int errorCode) {
        apply(new MPIException(errorCode, Empi.errorClassOf(errorCode), Empi.errorString(errorCode)));
    }
}
