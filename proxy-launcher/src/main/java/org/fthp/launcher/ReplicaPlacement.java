package org.fthp.launcher;

import java.util.ArrayList;
import java.util.List;

/**
 * Which host each native process of a multi-host job runs on, so that a host failure never takes both copies
 * of a rank. Computational copies (native ranks 0..N-1) fill the hosts in order, slot by slot, as mpirun's
 * default mapping would; the replica of rank j (native rank N+j) goes on the first host after rank j's that has a
 * free slot, and on the next host after rank j's when none has (oversubscribing it, but never on rank j's own).
 *
 * <p>Spares (native ranks N+M..N+M+S-1) come last, each on the host with the most free slots, a host holding
 * fewer of the program's copies first: a spare is worth most where a host failure does not take it along with the
 * copies it may replace.
 *
 * <p>fthp-run hands the result to mpirun as a rankfile ({@code rank R=HOST slot=0} for every rank: a rankfile's
 * slot names a processor of the host, and one beyond the host's processors fails mpirun's mapping with exit 1 and
 * no message, e.g. a third rank on a 2-core host; binding is off, so the processor named does not matter) and to the ranks as the coordinator of each native rank: the coordinator of
 * host k is node k.
 */
final class ReplicaPlacement {

    /** --map-replicas: on another host than the twin's (the default), or on the twin's own host. */
    static final String NEXT = "next";
    static final String SAME = "same";
    static final List<String> MAPPINGS = List.of(NEXT, SAME);

    private final HostList hosts;
    private final int ranks;
    /** How many of the last native ranks are spares. */
    private final int spares;
    /** Host index of each native rank. */
    private final int[] hostOf;

    private ReplicaPlacement(HostList hosts, int ranks, int spares, int[] hostOf) {
        this.hosts = hosts;
        this.ranks = ranks;
        this.spares = spares;
        this.hostOf = hostOf;
    }

    static ReplicaPlacement of(HostList hosts, int ranks, int replicas) {
        return of(hosts, ranks, replicas, NEXT, 0);
    }

    /**
     * {@code same}: each replica on its twin's host (a host failure then takes both: for comparisons);
     * {@code spares} after the program's processes.
     */
    static ReplicaPlacement of(HostList hosts, int ranks, int replicas, String mapping, int spares) {
        int h = hosts.count();
        int processes = ranks + replicas + spares;
        int[] hostOf = new int[processes];
        int[] used = new int[h];
        int host = 0;
        for (int r = 0; r < ranks; r++) {
            // by slot: the next host with room; once every slot is taken, round and round again
            int tries = 0;
            while (used[host] >= hosts.get(host).slots() && tries < h) {
                host = (host + 1) % h;
                tries++;
            }
            if (tries == h) {
                host = r % h;
            }
            place(r, host, hostOf, used);
        }
        for (int j = 0; j < replicas; j++) {
            int twin = hostOf[j];
            if (mapping.equals(SAME)) {
                place(ranks + j, twin, hostOf, used);
                continue;
            }
            int chosen = (twin + 1) % h;
            for (int step = 1; step < h; step++) {
                int candidate = (twin + step) % h;
                if (used[candidate] < hosts.get(candidate).slots()) {
                    chosen = candidate;
                    break;
                }
            }
            place(ranks + j, chosen, hostOf, used);
        }
        int[] program = used.clone();
        for (int k = 0; k < spares; k++) {
            int chosen = 0;
            for (int candidate = 1; candidate < h; candidate++) {
                long free = hosts.get(candidate).slots() - used[candidate];
                long best = hosts.get(chosen).slots() - used[chosen];
                if (free > best || (free == best && program[candidate] < program[chosen])) {
                    chosen = candidate;
                }
            }
            place(ranks + replicas + k, chosen, hostOf, used);
        }
        return new ReplicaPlacement(hosts, ranks, spares, hostOf);
    }

    private static void place(int nativeRank, int host, int[] hostOf, int[] used) {
        hostOf[nativeRank] = host;
        used[host]++;
    }

    int hostOf(int nativeRank) {
        return hostOf[nativeRank];
    }

    int processes() {
        return hostOf.length;
    }

    int spares() {
        return spares;
    }

    /** More processes than the hosts have slots: mpirun needs --oversubscribe. */
    boolean oversubscribed() {
        return processes() > hosts.totalSlots();
    }

    /** mpirun's rankfile: one {@code rank R=HOST slot=0} line per native rank (see the class comment). */
    String rankfile() {
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < hostOf.length; r++) {
            text.append("rank ").append(r).append('=').append(hosts.get(hostOf[r]).name())
                    .append(" slot=0\n");
        }
        return text.toString();
    }

    /**
     * hydra's {@code -hosts} list for the same placement: hydra has no rankfile, but it fills a host list's entries in
     * their order, each with as many ranks as its count, and keeps a host named twice as two entries, so the native
     * ranks in order, run-length encoded by host ({@code h0:2,h1:1,h0:1}), put every rank where the rankfile would.
     */
    String hydraHosts() {
        StringBuilder text = new StringBuilder();
        int r = 0;
        while (r < hostOf.length) {
            int run = 1;
            while (r + run < hostOf.length && hostOf[r + run] == hostOf[r]) {
                run++;
            }
            text.append(r == 0 ? "" : ",").append(hosts.get(hostOf[r]).name()).append(':').append(run);
            r += run;
        }
        return text.toString();
    }

    /** The coordinator (node id = host index) of each native rank, comma-separated, for the ranks. */
    String coordinatorOf() {
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < hostOf.length; r++) {
            text.append(r == 0 ? "" : ",").append(hostOf[r]);
        }
        return text.toString();
    }

    /** For --verbose: one line per logical rank, each copy's native rank and host, then one per spare. */
    List<String> table() {
        List<String> lines = new ArrayList<>();
        lines.add("layout: logical rank, computational copy (native rank @ host), replica (native rank @ host)");
        int replicas = hostOf.length - spares - ranks;
        for (int j = 0; j < ranks; j++) {
            String line = "  rank " + j + ": cmp " + j + " @ " + hosts.get(hostOf[j]).name();
            if (j < replicas) {
                line += ", rep " + (ranks + j) + " @ " + hosts.get(hostOf[ranks + j]).name();
            }
            lines.add(line);
        }
        for (int r = hostOf.length - spares; r < hostOf.length; r++) {
            lines.add("  spare " + r + " @ " + hosts.get(hostOf[r]).name());
        }
        return lines;
    }
}
