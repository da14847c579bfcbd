package org.fthp.it.programs;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Everything whose outcome depends on timing, used so that a replica taking
 * a different path than its computational twin would either deadlock or
 * leave a different trace:
 * <ul>
 * <li>wildcard receives whose matched source decides who is answered next
 *     (a replica answering someone else leaves a peer waiting forever);</li>
 * <li>testSome / waitAny / test / iProbe polling loops, whose index order and
 *     poll counts go into the trace;</li>
 * <li>a loop whose trip count comes from {@code MPI.wtime()}, with a
 *     collective in every trip (a replica running a different count would
 *     wait for a collective its twin never ran);</li>
 * <li>an order-sensitive floating-point allreduce, whose bits go into the trace.</li>
 * </ul>
 * Each rank prints "trace r: ..." (a replica's line, shown with
 * --show-replica-output, must equal its twin's), and rank 0 prints the
 * timing-independent results, which must equal an unreplicated run's.
 */
public final class ReplicaDeterminism {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        List<String> trace = new ArrayList<>();
        Check.runAll(w, "ReplicaDeterminism", () -> {
            wildcardsDecideWhoIsAnswered(w, rank, size, trace);
            pollingLoops(w, rank, size, trace);
            timeDrivenLoop(w, trace);
            orderSensitiveReduction(w, rank, size, trace);
        });
        System.out.println("trace " + rank + ": " + String.join(" ", trace));
        MPI.Finalize();
    }

    /**
     * Rank 0 takes requests from anyone in arrival order and answers each
     * sender right after taking its request, with the sender's position in
     * the order; every sender checks the answer is consistent.
     */
    static void wildcardsDecideWhoIsAnswered(Intracomm world, int rank, int size, List<String> trace)
            throws MPIException {
        // a communicator of its own: later phases' messages on COMM_WORLD must not match ANY_TAG here
        Intracomm w = world.dup();
        int rounds = 3;
        if (rank == 0) {
            int[] req = new int[1];
            int position = 0;
            StringBuilder order = new StringBuilder("order=");
            long sum = 0;
            for (int k = 0; k < rounds * (size - 1); k++) {
                Status s = w.recv(req, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(s.getSource() * 100 + s.getTag(), req[0], "request content matches its status");
                sum += req[0];
                order.append(s.getSource()).append('/').append(s.getTag()).append(',');
                w.send(new int[] {position++}, 1, MPI.INT, s.getSource(), 50 + s.getTag());
            }
            trace.add(order.toString());
            Check.equal((long) rounds * 100L * (size - 1) * size / 2 + (long) (size - 1) * (rounds * (rounds - 1) / 2),
                    sum, "every request arrived once");
        } else {
            int last = -1;
            for (int t = 0; t < rounds; t++) {
                w.send(new int[] {rank * 100 + t}, 1, MPI.INT, 0, t);
                int[] pos = new int[1];
                w.recv(pos, 1, MPI.INT, 0, 50 + t);
                Check.that(pos[0] > last, "answers come in increasing positions");
                last = pos[0];
            }
            trace.add("last=" + last);
        }
        w.free();
    }

    static void pollingLoops(Intracomm w, int rank, int size, List<String> trace) throws MPIException {
        // testSome over receives from every other rank, which send at staggered moments
        Request[] r = new Request[size];
        IntBuffer[] in = new IntBuffer[size];
        for (int p = 0; p < size; p++) {
            in[p] = MPI.newIntBuffer(1);
            r[p] = w.iRecv(in[p], 1, MPI.INT, p, 7);
        }
        for (int p = 0; p < size; p++) {
            IntBuffer out = MPI.newIntBuffer(1);
            out.put(0, rank * 1000 + p);
            w.send(out, 1, MPI.INT, (rank + p) % size, 7);
        }
        StringBuilder some = new StringBuilder("testSome=");
        int done = 0;
        int polls = 0;
        while (done < size) {
            int[] idx = Request.testSome(r);
            polls++;
            for (int i : idx) {
                some.append(i).append(',');
                Check.equal(i * 1000 + (rank - i + size) % size, in[i].get(0), "testSome payload");
                done++;
            }
        }
        trace.add(some + "polls=" + polls);

        // waitAny over fresh receives
        for (int p = 0; p < size; p++) {
            r[p] = w.iRecv(in[p], 1, MPI.INT, p, 8);
        }
        for (int p = size - 1; p >= 0; p--) {
            IntBuffer out = MPI.newIntBuffer(1);
            out.put(0, rank);
            w.send(out, 1, MPI.INT, (rank + p) % size, 8);
        }
        StringBuilder any = new StringBuilder("waitAny=");
        for (int k = 0; k < size; k++) {
            int i = Request.waitAny(r);
            any.append(i).append(',');
            Check.equal(i, in[i].get(0), "waitAny payload");
        }
        trace.add(any.toString());

        // test() and iProbe() polling counts
        int next = (rank + 1) % size;
        int prev = (rank - 1 + size) % size;
        IntBuffer one = MPI.newIntBuffer(1);
        Request rr = w.iRecv(one, 1, MPI.INT, prev, 9);
        w.send(new int[] {rank}, 1, MPI.INT, next, 9);
        int tests = 0;
        while (!rr.test()) {
            tests++;
        }
        Check.equal(prev, one.get(0), "test() payload");
        w.send(new int[] {rank}, 1, MPI.INT, next, 10);
        int probes = 0;
        Status st;
        while ((st = w.iProbe(MPI.ANY_SOURCE, 10)) == null) {
            probes++;
        }
        Check.equal(prev, st.getSource(), "iProbe source");
        int[] got = new int[1];
        w.recv(got, 1, MPI.INT, st.getSource(), 10);
        trace.add("tests=" + tests + " probes=" + probes);
    }

    /**
     * As HPCG does, the number of trips comes from the clock: each rank asks
     * its clock whether to go on and the ranks agree (a MIN allreduce), so
     * every trip is a collective. The clock values seen go into the trace: a
     * replica reading its own clock would leave another one.
     */
    static void timeDrivenLoop(Intracomm w, List<String> trace) throws MPIException {
        double start = MPI.wtime();
        int trips = 0;
        int localYes = 0;
        long clockBits = 0;
        int[] goOn = new int[1];
        do {
            double now = MPI.wtime();
            clockBits = clockBits * 31 + Double.doubleToRawLongBits(now);
            int mine = now - start < 0.3 ? 1 : 0;
            localYes += mine;
            w.allReduce(new int[] {mine}, goOn, 1, MPI.INT, MPI.MIN);
            trips++;
        } while (goOn[0] == 1);
        trace.add("trips=" + trips + " localYes=" + localYes + " clock=" + Long.toHexString(clockBits));
    }

    /** Terms of very different magnitude: the sum's bits depend on the order they are added in. */
    static void orderSensitiveReduction(Intracomm w, int rank, int size, List<String> trace) throws MPIException {
        int n = 64;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = (rank % 2 == 0 ? 1e16 : -1e16) * (i + 1) + Math.sqrt(rank + i + 2) * 0.1 + 1.0 / (rank + 3);
        }
        double[] small = new double[n];
        w.allReduce(v, small, n, MPI.DOUBLE, MPI.SUM);
        int big = 4096;
        double[] vb = new double[big];
        for (int i = 0; i < big; i++) {
            vb[i] = v[i % n] * (1 + i * 1e-9);
        }
        double[] large = new double[big];
        w.allReduce(vb, large, big, MPI.DOUBLE, MPI.SUM);
        double[] reduced = new double[n];
        w.reduce(v, reduced, n, MPI.DOUBLE, MPI.SUM, 0);
        long allreduceBits = bits(bits(17, small), large);
        long h = rank == 0 ? bits(allreduceBits, reduced) : allreduceBits;
        trace.add("sumbits=" + Long.toHexString(h));
        // every rank got the same allreduce bits as rank 0
        long[] root = {allreduceBits};
        w.bcast(root, 1, MPI.LONG, 0);
        Check.that(root[0] == allreduceBits, "allreduce bits equal rank 0's");
    }

    private static long bits(long h, double[] values) {
        for (double d : values) {
            h = h * 31 + Double.doubleToRawLongBits(d);
        }
        return h;
    }
}
