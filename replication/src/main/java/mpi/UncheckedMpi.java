package mpi;

import org.fthp.replication.error.ClassifiedError;

/** Carries an {@link MPIException} out of a completion step that cannot throw checked exceptions. */
final class UncheckedMpi extends RuntimeException implements ClassifiedError {

    UncheckedMpi(MPIException cause) {
        super(cause);
    }

    @Override
    public synchronized MPIException getCause() {
        return (MPIException) super.getCause();
    }

    @Override
    public int errorClass() {
        return getCause().getErrorClass();
    }

    @Override
    public String errorMessage() {
        return getCause().getMessage();
    }
}
