package org.fthp.replication.runtime;

import org.fthp.replication.error.MpiError;
import org.fthp.replication.routing.ReplicaLayout;

/**
 * The job's shape as fthp-run launched it: how many logical ranks the
 * program sees and how many of them have a replica. Without fthp-run's
 * variables every native process is a logical rank of its own.
 */
public final class JobLayout {

    public static final String LOGICAL_SIZE_ENV = "FTHP_LOGICAL_SIZE";
    public static final String REPLICAS_ENV = "FTHP_REPLICAS";
    public static final String SHOW_REPLICA_OUTPUT_ENV = "FTHP_SHOW_REPLICA_OUTPUT";
    /** How many spares follow the program's N + M processes in the native COMM_WORLD (fthp-run --spares). */
    public static final String SPARES_ENV = "FTHP_SPARES";

    private JobLayout() {}

    public static ReplicaLayout fromEnvironment(int nativeSize) {
        int n = intEnv(LOGICAL_SIZE_ENV, nativeSize);
        int m = intEnv(REPLICAS_ENV, 0);
        int s = spares();
        if (n < 1 || m < 0 || m > n || s < 0 || n + m + s != nativeSize) {
            throw new MpiError(MpiError.ERR_OTHER, "the job has " + nativeSize + " native processes, but "
                    + LOGICAL_SIZE_ENV + "=" + n + ", " + REPLICAS_ENV + "=" + m + " and " + SPARES_ENV + "=" + s
                    + " need N + M + S of them with 0 <= M <= N (start the job with fthp-run)");
        }
        return ReplicaLayout.launch(n, m);
    }

    /** The spares after the program's processes in the native COMM_WORLD; 0 without fthp-run's --spares. */
    public static int spares() {
        return intEnv(SPARES_ENV, 0);
    }

    public static boolean showReplicaOutput() {
        return "1".equals(System.getenv(SHOW_REPLICA_OUTPUT_ENV));
    }

    private static int intEnv(String name, int otherwise) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new MpiError(MpiError.ERR_OTHER, name + " must be a number, got '" + v + "'");
        }
    }
}
