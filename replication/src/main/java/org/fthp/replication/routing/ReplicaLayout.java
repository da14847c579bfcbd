package org.fthp.replication.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.Role;

/**
 * Which native process holds each copy of each logical rank, and the routes
 * point-to-point messages take between copies (the paper's §V-A). Pure logic:
 * the runtime builds its communicators and sends from it, and after a failure
 * a new layout (with promotions) says what to rebuild.
 *
 * <p>Communicator ranks follow logical order: CMP rank = logical rank; REP
 * rank = position among the replicated logical ranks; CMP_NO_REP rank =
 * position among the others. The eworld lists every live copy, computational
 * copies first, each group in logical order.
 */
public final class ReplicaLayout {

    private final int[] cmpNative;
    private final int[] repNative;   // -1: no live replica
    private final int[] repRank;     // -1: no replica
    private final int replicas;

    private ReplicaLayout(int[] cmpNative, int[] repNative) {
        this.cmpNative = cmpNative;
        this.repNative = repNative;
        int n = cmpNative.length;
        this.repRank = new int[n];
        int r = 0;
        for (int l = 0; l < n; l++) {
            repRank[l] = repNative[l] >= 0 ? r++ : -1;
        }
        this.replicas = r;
    }

    /**
     * The launch layout of {@code n} logical ranks with {@code m} replicas:
     * native ranks 0..n-1 are the computational copies of logical 0..n-1, and
     * native rank n+j is the replica of logical rank j.
     */
    public static ReplicaLayout launch(int n, int m) {
        if (n < 1 || m < 0 || m > n) {
            throw new IllegalArgumentException("need 1 <= N and 0 <= M <= N, got N=" + n + ", M=" + m);
        }
        int[] cmp = new int[n];
        int[] rep = new int[n];
        for (int l = 0; l < n; l++) {
            cmp[l] = l;
            rep[l] = l < m ? n + l : -1;
        }
        return new ReplicaLayout(cmp, rep);
    }

    /**
     * The layout of a communicator's members as its own eworld numbers them:
     * member i's computational copy is i, and the replicas follow in member
     * order (the k-th replicated member's replica is {@code n + k}).
     */
    public static ReplicaLayout ofMembers(boolean[] replicated) {
        int n = replicated.length;
        int[] cmp = new int[n];
        int[] rep = new int[n];
        int k = 0;
        for (int l = 0; l < n; l++) {
            cmp[l] = l;
            rep[l] = replicated[l] ? n + k++ : -1;
        }
        return new ReplicaLayout(cmp, rep);
    }

    /**
     * The layout a rollback in place gives the job (the coordinators' one answer): logical rank {@code l}'s
     * computational copy is {@code cmp[l]}, its replica {@code rep[l]} (-1: none).
     */
    public static ReplicaLayout of(List<Integer> cmp, List<Integer> rep) {
        int n = cmp.size();
        if (n < 1 || rep.size() != n) {
            throw new IllegalArgumentException("a layout needs as many replicas (or -1) as ranks: " + cmp + " " + rep);
        }
        int[] c = new int[n];
        int[] r = new int[n];
        for (int l = 0; l < n; l++) {
            c[l] = cmp.get(l);
            r[l] = rep.get(l);
            if (c[l] < 0 || r[l] < -1) {
                throw new IllegalArgumentException("bad native rank in layout: " + cmp + " " + rep);
            }
        }
        return new ReplicaLayout(c, r);
    }

    /** The number of replicas needed for a fraction {@code degree} of {@code n} ranks (1 = dual redundancy). */
    public static int replicasForDegree(int n, double degree) {
        if (!(degree >= 0 && degree <= 1)) {
            throw new IllegalArgumentException("replication degree must be between 0 and 1, got " + degree);
        }
        return (int) Math.round(degree * n);
    }

    public int size() { return cmpNative.length; }
    public int replicas() { return replicas; }
    public boolean hasReplica(int logical) { return repNative[logical] >= 0; }
    public int cmpNative(int logical) { return cmpNative[logical]; }
    public int repNative(int logical) { return repNative[logical]; }
    public int repRank(int logical) { return repRank[logical]; }

    /** Native ranks of every live copy in eworld order: computational copies, then replicas. */
    public int[] eworld() {
        int[] out = new int[size() + replicas];
        int k = 0;
        for (int l = 0; l < size(); l++) {
            out[k++] = cmpNative[l];
        }
        for (int l = 0; l < size(); l++) {
            if (repNative[l] >= 0) {
                out[k++] = repNative[l];
            }
        }
        return out;
    }

    /** The logical rank and role of a native process, or null if it holds no live copy. */
    public Copy copyOf(int nativeRank) {
        for (int l = 0; l < size(); l++) {
            if (cmpNative[l] == nativeRank) {
                return new Copy(l, Role.CMP);
            }
            if (repNative[l] == nativeRank) {
                return new Copy(l, Role.REP);
            }
        }
        return null;
    }

    /** A copy of a logical rank. */
    public record Copy(int logical, Role role) {}

    /**
     * The native sends the copy {@code role} of logical {@code source} makes
     * for a message to logical {@code dest}: every live copy of the
     * destination gets it exactly once. A replica sending to a rank without a
     * replica sends nothing (it only logs: it may be promoted).
     */
    public List<Route> sendRoutes(int source, int dest, Role role) {
        List<Route> routes = new ArrayList<>(2);
        if (role == Role.CMP) {
            routes.add(new Route(Link.CMP, dest));
            if (hasReplica(dest) && !hasReplica(source)) {
                routes.add(new Route(Link.CMP_NO_REP_TO_REP, dest));
            }
        } else {
            requireReplica(source);
            if (hasReplica(dest)) {
                routes.add(new Route(Link.REP, repRank[dest]));
            }
        }
        return routes;
    }

    /** Where the copy {@code role} of logical {@code dest} receives a message from logical {@code source}. */
    public Route receiveRoute(int source, int dest, Role role) {
        if (role == Role.CMP) {
            return new Route(Link.CMP, source);
        }
        requireReplica(dest);
        return hasReplica(source)
                ? new Route(Link.REP, repRank[source])
                : new Route(Link.REP_FROM_CMP_NO_REP, source);
    }

    /**
     * The layout after the native processes in {@code dead} failed: a replica
     * whose twin died becomes the computational copy, a dead replica is
     * dropped. Throws {@link RankLostException} when every copy of a rank died.
     */
    public ReplicaLayout withFailures(Set<Integer> dead) {
        int n = size();
        int[] cmp = cmpNative.clone();
        int[] rep = repNative.clone();
        for (int l = 0; l < n; l++) {
            boolean cmpDead = dead.contains(cmp[l]);
            boolean repDead = rep[l] < 0 || dead.contains(rep[l]);
            if (cmpDead && repDead) {
                throw new RankLostException(l);
            }
            if (cmpDead) {
                cmp[l] = rep[l];
                rep[l] = -1;
            } else if (repDead) {
                rep[l] = -1;
            }
        }
        return new ReplicaLayout(cmp, rep);
    }

    private void requireReplica(int logical) {
        if (!hasReplica(logical)) {
            throw new IllegalArgumentException("logical rank " + logical + " has no replica");
        }
    }

    @Override
    public String toString() {
        return "ReplicaLayout{cmp=" + Arrays.toString(cmpNative) + ", rep=" + Arrays.toString(repNative) + "}";
    }
}
