package mpi;

import org.fthp.replication.routing.ReplicaLayout;

/**
 * The job's shape as fthp-run launched it: how many logical ranks the
 * program sees and how many of them have a replica. Without fthp-run's
 * variables every native process is a logical rank of its own.
 */
final class JobLayout {

    static final String LOGICAL_SIZE_ENV = "FTHP_LOGICAL_SIZE";
    static final String REPLICAS_ENV = "FTHP_REPLICAS";
    static final String SHOW_REPLICA_OUTPUT_ENV = "FTHP_SHOW_REPLICA_OUTPUT";

    private JobLayout() {}

    static ReplicaLayout fromEnvironment(int nativeSize) throws MPIException {
        int n = intEnv(LOGICAL_SIZE_ENV, nativeSize);
        int m = intEnv(REPLICAS_ENV, 0);
        if (n < 1 || m < 0 || m > n || n + m != nativeSize) {
            throw Errors.error(MPI.ERR_OTHER, "the job has " + nativeSize + " native processes, but "
                    + LOGICAL_SIZE_ENV + "=" + n + " and " + REPLICAS_ENV + "=" + m
                    + " need N + M of them with 0 <= M <= N (start the job with fthp-run)");
        }
        return ReplicaLayout.launch(n, m);
    }

    static boolean showReplicaOutput() {
        return "1".equals(System.getenv(SHOW_REPLICA_OUTPUT_ENV));
    }

    private static int intEnv(String name, int otherwise) throws MPIException {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw Errors.error(MPI.ERR_OTHER, name + " must be a number, got '" + v + "'");
        }
    }
}
