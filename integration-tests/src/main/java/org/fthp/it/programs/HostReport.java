package org.fthp.it.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * For jobs across (emulated) hosts: every rank prints "rank r on HOST" with
 * its processor name, rank 0 gathers the names and prints how many ranks each
 * host has; then messages round a ring in both directions (a 1 MiB one too,
 * so the large-message path crosses hosts) and an allreduce, each checked.
 * Prints "HostReport OK np=N".
 */
public final class HostReport {

    private static final int LARGE = 1 << 20;
    /** Room for a host name in the gather (MPI_MAX_PROCESSOR_NAME is 256 in Open MPI). */
    private static final int NAME_BYTES = 256;

    private HostReport() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        String host = MPI.getProcessorName();
        System.out.println("rank " + rank + " on " + host);
        System.out.flush();
        Check.runAll(world, "HostReport", () -> {
            reportHosts(world, rank, size, host);
            ring(world, rank, size);
            long[] sum = {rank};
            world.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            Check.that(sum[0] == (long) size * (size - 1) / 2, "allreduce sum " + sum[0]);
        });
        MPI.Finalize();
    }

    /** Rank 0 prints "host NAME ranks a,b,..." for each host, in rank order of first appearance. */
    private static void reportHosts(Intracomm world, int rank, int size, String host) throws MPIException {
        byte[] mine = new byte[NAME_BYTES];
        byte[] name = host.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.arraycopy(name, 0, mine, 0, Math.min(name.length, mine.length));
        byte[] all = new byte[mine.length * size];
        world.gather(mine, mine.length, MPI.BYTE, all, mine.length, MPI.BYTE, 0);
        if (rank != 0) {
            return;
        }
        java.util.Map<String, StringBuilder> byHost = new java.util.LinkedHashMap<>();
        for (int r = 0; r < size; r++) {
            int end = r * mine.length;
            while (end < (r + 1) * mine.length && all[end] != 0) {
                end++;
            }
            String h = new String(all, r * mine.length, end - r * mine.length, java.nio.charset.StandardCharsets.UTF_8);
            StringBuilder ranks = byHost.computeIfAbsent(h, k -> new StringBuilder());
            ranks.append(ranks.isEmpty() ? "" : ",").append(r);
        }
        byHost.forEach((h, ranks) -> System.out.println("host " + h + " ranks " + ranks));
        System.out.flush();
    }

    /** Each rank sends its rank (and a 1 MiB pattern) to the next and checks what the previous sent. */
    private static void ring(Intracomm world, int rank, int size) throws MPIException {
        int next = (rank + 1) % size;
        int prev = (rank - 1 + size) % size;
        int[] got = new int[1];
        world.sendRecv(new int[] {rank}, 1, MPI.INT, next, 1, got, 1, MPI.INT, prev, 1);
        Check.that(got[0] == prev, "ring got " + got[0] + " from " + prev);
        world.sendRecv(new int[] {rank}, 1, MPI.INT, prev, 2, got, 1, MPI.INT, next, 2);
        Check.that(got[0] == next, "reverse ring got " + got[0] + " from " + next);
        byte[] out = new byte[LARGE];
        byte[] in = new byte[LARGE];
        for (int i = 0; i < LARGE; i++) {
            out[i] = (byte) (i * 31 + rank);
        }
        Status s = world.sendRecv(out, LARGE, MPI.BYTE, next, 3, in, LARGE, MPI.BYTE, prev, 3);
        Check.that(s.getCount(MPI.BYTE) == LARGE, "large count " + s.getCount(MPI.BYTE));
        for (int i = 0; i < LARGE; i++) {
            if (in[i] != (byte) (i * 31 + prev)) {
                throw new AssertionError("large message from " + prev + " differs at byte " + i);
            }
        }
    }
}
