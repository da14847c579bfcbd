package mpi;

/** Carries an {@link MPIException} out of a completion step that cannot throw checked exceptions. */
final class UncheckedMpi extends RuntimeException {

    UncheckedMpi(MPIException cause) {
        super(cause);
    }

    @Override
    public synchronized MPIException getCause() {
        return (MPIException) super.getCause();
    }
}
