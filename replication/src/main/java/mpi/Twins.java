package mpi;

import java.nio.charset.StandardCharsets;

import org.fthp.replication.ops.DecisionOp;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.TwinLink;

/**
 * Determinism (DESIGN §7): the computational copy decides every outcome that
 * depends on timing and forwards it; its replica takes the forwarded outcome
 * instead of its own. Process-wide outcomes (test flags, chosen indices,
 * wtime) travel on COMM_WORLD's twin link; outcomes of one communicator
 * (wildcard matches, probes) on that communicator's.
 */
final class Twins {

    private Twins() {}

    /** COMM_WORLD's twin link, or null when this process has no twin (or MPI is not running). */
    static TwinLink world() {
        if (!Session.isInitialized() || Session.isFinalized()) {
            return null;
        }
        CommStructure s = MPI.COMM_WORLD.structure;
        return s == null ? null : s.twin();
    }

    static boolean follows(TwinLink t) {
        return t != null && t.follows();
    }

    /** The computational copy forwards {@code values} (no-op without a twin); returns them. */
    static long[] decide(TwinLink t, long... values) {
        if (t != null) {
            Session.orphans().adopt(DecisionOp.send(Session.pool(), t, t.nextTag(), values));
        }
        return values;
    }

    /** The replica waits for its twin's next decision of at most {@code maxLength} values. */
    static long[] await(TwinLink t, int maxLength) {
        DecisionOp op = DecisionOp.receive(Session.pool(), t, t.nextTag(), maxLength);
        Session.await(op);
        return op.values();
    }

    /** One value decided by the computational copy: {@code local} there, the twin's on a replica. */
    static long share(TwinLink t, long local) {
        if (follows(t)) {
            return await(t, 1)[0];
        }
        decide(t, local);
        return local;
    }

    static String share(TwinLink t, String local) {
        if (follows(t)) {
            long[] v = await(t, 65);
            byte[] b = new byte[(int) Math.min(v[0], 512)];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (v[1 + i / 8] >>> (8 * (i % 8)));
            }
            return new String(b, StandardCharsets.UTF_8);
        }
        if (t != null) {
            byte[] b = local.getBytes(StandardCharsets.UTF_8);
            int n = Math.min(b.length, 512);
            long[] v = new long[1 + (n + 7) / 8];
            v[0] = n;
            for (int i = 0; i < n; i++) {
                v[1 + i / 8] |= (b[i] & 0xffL) << (8 * (i % 8));
            }
            decide(t, v);
        }
        return local;
    }
}
