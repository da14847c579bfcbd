package org.fthp.it.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * sSend's guarantee, checked by the receiver: each even rank sSends tag 1 and then sends tag 2 to the
 * next rank, which probes for tag 2 a few times before it receives tag 1. A synchronous send completes only once
 * its receive is matched, so tag 2 cannot exist yet: a probe that sees it is a violation. Repeated
 * {@code iterations} times (default 4) with {@code probes} probes 5 ms apart (default 100), so a kill at the
 * receiver's 12th MPI call lands while its sender waits in sSend and the probes go on after the repair; every
 * rank prints
 * "SsendSync OK rank R" when no violation was seen. The sSend's message has {@code ints} ints (default 1; from
 * 16384, 64 KiB, its payload is pulled from the sender's memory), every one of them the iteration's number.
 */
public final class SsendSync {

    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        // long enough that a repair for a death in the middle (a kill at the receiver's 12th call) ends before it
        int probes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int ints = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int violations = 0;
        int[] box = new int[1];
        int[] synchronous = new int[ints];
        for (int it = 0; it < iterations; it++) {
            if (rank % 2 == 0 && rank + 1 < size) {
                java.util.Arrays.fill(synchronous, it);
                MPI.COMM_WORLD.sSend(synchronous, ints, MPI.INT, rank + 1, 1);
                MPI.COMM_WORLD.send(new int[] {it}, 1, MPI.INT, rank + 1, 2);
            } else if (rank % 2 == 1) {
                for (int p = 0; p < probes; p++) {
                    Status early = MPI.COMM_WORLD.iProbe(rank - 1, 2);
                    if (early != null) {
                        violations++;
                        System.out.println("VIOLATION rank " + rank + " iteration " + it
                                + ": tag 2 could be probed before tag 1 was received");
                    }
                    Thread.sleep(5);
                }
                MPI.COMM_WORLD.recv(synchronous, ints, MPI.INT, rank - 1, 1);
                for (int v : synchronous) {
                    Check.that(v == it, "tag 1 of iteration " + it + " carries " + v);
                }
                MPI.COMM_WORLD.recv(box, 1, MPI.INT, rank - 1, 2);
                Check.that(box[0] == it, "tag 2 of iteration " + it + " carries " + box[0]);
            }
        }
        MPI.COMM_WORLD.barrier();
        if (violations == 0) {
            System.out.println("SsendSync OK rank " + rank);
        }
        MPI.Finalize();
    }
}
