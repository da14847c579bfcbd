package mpi;

import org.fthp.empi.EmpiException;
import org.fthp.replication.error.MpiError;

/** Turns internal failures into {@link MPIException}s with the right error class. */
final class Errors {

    private Errors() {}

    static MPIException error(int errorClass, String message) {
        return new MPIException(errorClass, errorClass, message);
    }

    /** An error the engine raised: it says its class. */
    static MPIException from(MpiError e) {
        MPIException m = new MPIException(e.errorClass(), e.errorClass(), e.getMessage());
        m.initCause(e);
        return m;
    }

    static MPIException from(EmpiException e) {
        int cls = e.errorClass() >= 0 ? e.errorClass() : MPI.ERR_INTERN;
        int code = e.errorCode() >= 0 ? e.errorCode() : cls;
        MPIException m = new MPIException(code, cls, e.getMessage());
        m.initCause(e);
        return m;
    }
}
