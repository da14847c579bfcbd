package org.fthp.it.programs;

import java.nio.IntBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * What a request promises, checked on every use while processes die
 * (a repair must not treat as done what is not): every iteration
 * each rank posts a receive from every other rank and sends to each, then
 * completes the receives with {@code waitAny} (odd iterations) or
 * {@code testSome} (even ones) and persistent requests restarted every
 * iteration carry a ring shift. Checked each time:
 * <ul>
 *   <li>an index {@code waitAny}/{@code testSome} returns names a request that
 *       is complete: its buffer holds that sender's value of this iteration,
 *       and its status names that sender;
 *   <li>no index comes back twice, and every receive completes once;
 *   <li>a completed non-persistent request is null afterwards, one not yet
 *       returned is not;
 *   <li>a persistent receive restarted after a repair gets this iteration's
 *       value from its neighbour: nothing lost, nothing twice, in order.
 * </ul>
 * A violation aborts the job (non-zero exit). Rank 0 prints a checksum of
 * everything received (a sum, since completion order depends on timing),
 * which must equal the failure-free run's.
 *
 * <p>Arguments: iterations (default 60).
 */
public final class RequestsThroughRepair {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        Check.runAll(world, "RequestsThroughRepair", () -> run(world, iterations));
        MPI.Finalize();
    }

    static int value(int from, int to, int iteration) {
        return from * 1_000_000 + to * 10_000 + iteration;
    }

    private static void run(Intracomm world, int iterations) throws Exception {
        int rank = world.getRank();
        int size = world.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        IntBuffer ringOut = MPI.newIntBuffer(1);
        IntBuffer ringIn = MPI.newIntBuffer(1);
        Prequest ringSend = world.sendInit(ringOut, 1, MPI.INT, next, 7);
        Prequest ringRecv = world.recvInit(ringIn, 1, MPI.INT, prev, 7);
        IntBuffer[] in = new IntBuffer[size];
        IntBuffer[] out = new IntBuffer[size];
        for (int p = 0; p < size; p++) {
            in[p] = MPI.newIntBuffer(1);
            out[p] = MPI.newIntBuffer(1);
        }
        long checksum = 0;
        for (int it = 0; it < iterations; it++) {
            ringOut.put(0, value(rank, next, it));
            ringRecv.start();
            ringSend.start();

            int others = size - 1;
            Request[] recvs = new Request[others];
            int[] sourceOf = new int[others];
            Request[] sends = new Request[others];
            for (int k = 0, p = 0; p < size; p++) {
                if (p == rank) {
                    continue;
                }
                in[p].put(0, -1);
                recvs[k] = world.iRecv(in[p], 1, MPI.INT, p, 5);
                sourceOf[k] = p;
                out[p].put(0, value(rank, p, it));
                sends[k] = world.iSend(out[p], 1, MPI.INT, p, 5);
                k++;
            }
            boolean[] returned = new boolean[others];
            int done = 0;
            while (done < others) {
                int[] indices;
                Status[] statuses;
                if (it % 2 == 1) {
                    Status s = Request.waitAnyStatus(recvs);
                    indices = new int[] {s.getIndex()};
                    statuses = new Status[] {s};
                } else {
                    statuses = Request.testSomeStatus(recvs);
                    if (statuses == null) {
                        continue;
                    }
                    indices = new int[statuses.length];
                    for (int j = 0; j < statuses.length; j++) {
                        indices[j] = statuses[j].getIndex();
                    }
                }
                for (int j = 0; j < indices.length; j++) {
                    int k = indices[j];
                    Check.that(k >= 0 && k < others, "iteration " + it + ": index " + k + " out of range");
                    Check.that(!returned[k], "iteration " + it + ": index " + k + " returned twice");
                    returned[k] = true;
                    done++;
                    int p = sourceOf[k];
                    Check.that(statuses[j].getSource() == p, "iteration " + it + ": index " + k + " says source "
                            + statuses[j].getSource() + ", posted for " + p);
                    Check.that(in[p].get(0) == value(p, rank, it), "iteration " + it + ": index " + k
                            + " returned before its data came: " + in[p].get(0) + ", expected " + value(p, rank, it));
                    Check.that(recvs[k].isNull(), "iteration " + it + ": a completed request is not null");
                    checksum += RepairWorkload.mix(it, in[p].get(0)); // in any order: completion order depends on timing
                }
                for (int k = 0; k < others; k++) {
                    Check.that(returned[k] || !recvs[k].isNull(),
                            "iteration " + it + ": request " + k + " is null before it was returned");
                }
            }
            Request.waitAll(sends);
            ringRecv.waitFor();
            ringSend.waitFor();
            Check.that(ringIn.get(0) == value(prev, rank, it), "iteration " + it + ": the persistent receive got "
                    + ringIn.get(0) + ", expected " + value(prev, rank, it));
            checksum += RepairWorkload.mix(it, ringIn.get(0));
        }
        ringSend.free();
        ringRecv.free();
        long[] all = new long[size];
        world.gather(new long[] {checksum}, 1, MPI.LONG, all, 1, MPI.LONG, 0);
        if (rank == 0) {
            for (int p = 0; p < size; p++) {
                System.out.printf("RequestsThroughRepair rank %d checksum %016x%n", p, all[p]);
            }
        }
    }
}
