package mpi;

import org.fthp.empi.Empi;
import org.fthp.replication.runtime.Engine;

/**
 * MPI_ERRORS_ARE_FATAL: report the error like the native library would and
 * end the whole job. Native communicators always return errors, so this is
 * the only place that turns an error into an abort.
 */
final class FatalErrors {

    private FatalErrors() {}

    static void abort(Comm comm, MPIException e) {
        String where;
        try {
            where = "rank " + MPI.COMM_WORLD.getRank();
        } catch (MPIException ignored) {
            where = "a rank";
        }
        System.out.flush();
        System.err.println("*** An error occurred in an MPI call on " + where + " (error class " + e.getErrorClass()
                + "): " + e.getMessage());
        System.err.println("*** MPI_ERRORS_ARE_FATAL: the job will now abort "
                + "(use comm.setErrhandler(MPI.ERRORS_RETURN) to get exceptions instead)");
        e.printStackTrace(System.err);
        System.err.flush();
        abortJob(e.getErrorClass() == 0 ? 1 : e.getErrorClass(), where + " hit an error under MPI_ERRORS_ARE_FATAL: "
                + e.getMessage());
    }

    /** {@code reason} is what fthp-run prints; an abort with code 0 still ends the job as a failure (1). */
    static void abortJob(int code, String reason) {
        System.out.flush();
        System.err.flush();
        Engine engine = Engine.get();
        if (engine != null && engine.programEnd() != null) {
            // the coordinators end the job with this code before the native abort's deaths reach them
            engine.programEnd().aborting(code == 0 ? 1 : code, reason);
        }
        Empi.abort(Empi.COMM_WORLD, code);
        Runtime.getRuntime().halt(code == 0 ? 1 : code);
    }
}
