package org.fthp.replication.runtime;

import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

import org.fthp.replication.ops.DecisionOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.OrphanRequests;
import org.fthp.replication.progress.DutyCycle;
import org.fthp.replication.progress.IdleStrategy;
import org.fthp.replication.structure.CommRef;
import org.fthp.replication.structure.CommStructure;

/**
 * Determinism (docs/DESIGN.md §7): the computational copy decides every outcome that
 * depends on timing and forwards it; its replica takes the forwarded outcome
 * instead of its own. Process-wide outcomes (test flags, chosen indices,
 * wtime) travel on COMM_WORLD's twin link; outcomes of one communicator
 * (wildcard matches, probes) on that communicator's.
 */
public final class Twins {

    private final OpContext ops;
    /** Progresses the decisions sent, which nobody waits for. */
    private final OrphanRequests orphans;
    private final DutyCycle duty;
    /** COMM_WORLD, whichever structure it has now. */
    private final CommRef world;
    /** Whether MPI runs (between init and finalize). */
    private final BooleanSupplier running;

    public Twins(OpContext ops, OrphanRequests orphans, DutyCycle duty, CommRef world, BooleanSupplier running) {
        this.ops = ops;
        this.orphans = orphans;
        this.duty = duty;
        this.world = world;
        this.running = running;
    }

    /** COMM_WORLD's structure, or null when MPI is not running. */
    public CommStructure world() {
        return running.getAsBoolean() ? world.get() : null;
    }

    /**
     * Whether {@code s}'s timing-dependent outcomes come from elsewhere: the
     * twin's, or a dead twin's that arrived before this copy was promoted.
     */
    public static boolean follows(CommStructure s) {
        if (s == null) {
            return false;
        }
        CommStructure now = s.current();
        return now.follows() || (now.twin() == null && now.twinRecords().inherits());
    }

    /**
     * The computational copy forwards {@code values} to its replica, if it
     * has one now (a repair may have taken it since {@code s} was looked up);
     * returns them.
     */
    public long[] decide(CommStructure s, long... values) {
        CommStructure now = s == null ? null : s.current();
        if (now != null && now.twin() != null && !now.twin().follows()) {
            orphans.adopt(DecisionOp.send(ops, now, now.twin().nextTag(), values));
        }
        return values;
    }

    /**
     * The replica waits for its twin's next decision of at most
     * {@code maxLength} values; null if a repair promoted it before the
     * decision came: then it decides itself (and {@link #follows} is false).
     */
    public long[] await(CommStructure s, int maxLength) {
        return await(s, maxLength, null);
    }

    /**
     * As {@link #await(CommStructure, int)}, idling between fruitless turns with {@code idle} (null: the duty
     * cycle's own strategy): a comparison's wait parks where a decision's spins (TwinComparison).
     */
    public long[] await(CommStructure s, int maxLength, IdleStrategy idle) {
        CommStructure now = s.current();
        if (!now.follows()) {
            // promoted: the dead twin's decision if it had arrived, else this copy decides (the caller does)
            byte[] d = now.twinRecords().takeInherited(now.nextDecisionTag());
            if (d == null) {
                return null;
            }
            long[] values = new long[maxLength];
            java.nio.ByteBuffer.wrap(d).order(java.nio.ByteOrder.nativeOrder()).asLongBuffer()
                    .get(values, 0, Math.min(maxLength, d.length / 8));
            return values;
        }
        DecisionOp op = DecisionOp.receive(ops, now, now.twin().nextTag(), maxLength);
        if (idle == null) {
            duty.await(op);
        } else {
            DutyCycle.await(op, duty::doWork, idle);
        }
        return op.values();
    }

    /**
     * A timing-dependent outcome of {@code s} (at most {@code maxLength}
     * values), decided once for both twins: a replica takes its twin's (once
     * promoted, the dead twin's it kept, TwinRecords#inherit); otherwise, or
     * when nobody decided for it, {@code local} decides here and the outcome
     * goes to the replica if there is one. A replica told an operation is
     * done waits for its own copy of it: the caller's part.
     */
    public long[] decided(CommStructure s, int maxLength, java.util.function.Supplier<long[]> local) {
        long[] d = follows(s) ? await(s, maxLength) : null;
        if (d != null) {
            return d;
        }
        long[] mine = local.get();
        decide(s, mine);
        return mine;
    }

    /** One value decided by the computational copy: {@code local} there, the twin's on a replica. */
    public long share(CommStructure s, long local) {
        if (follows(s)) {
            long[] v = await(s, 1);
            if (v != null) {
                return v[0];
            }
        }
        decide(s, local);
        return local;
    }

    public String share(CommStructure s, String local) {
        long[] v = follows(s) ? await(s, 65) : null;
        if (v != null) {
            byte[] b = new byte[(int) Math.min(v[0], 512)];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (v[1 + i / 8] >>> (8 * (i % 8)));
            }
            return new String(b, StandardCharsets.UTF_8);
        }
        if (s != null) {
            byte[] b = local.getBytes(StandardCharsets.UTF_8);
            int n = Math.min(b.length, 512);
            long[] w = new long[1 + (n + 7) / 8];
            w[0] = n;
            for (int i = 0; i < n; i++) {
                w[1 + i / 8] |= (b[i] & 0xffL) << (8 * (i % 8));
            }
            decide(s, w);
        }
        return local;
    }
}
