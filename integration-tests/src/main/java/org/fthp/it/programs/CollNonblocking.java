package org.fthp.it.programs;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Nonblocking collectives with direct buffers: many outstanding at once, completed with
 * Request.waitAll, and overlapped with point-to-point traffic.
 */
public final class CollNonblocking {

    static Intracomm w;
    static int rank, size;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        w = MPI.COMM_WORLD;
        rank = w.getRank();
        size = w.getSize();
        Check.runAll(w, "CollNonblocking", () -> {
            for (int round = 0; round < 2; round++) {
                batch(round);
            }
            inPlace();
            rootedEach();
        });
        MPI.Finalize();
    }

    static int v(int r, int i) {
        return r * 100 + i + 1;
    }

    static int iv(int r, int i) {
        return (r * 7 + i * 3) % 11 - 3;
    }

    static IntBuffer ints(int n, int fill) {
        IntBuffer b = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) b.put(i, fill);
        return b;
    }

    static void batch(int round) throws MPIException {
        int root = round % size;
        int other = (root + 1) % size;
        int n = 3;

        // point-to-point ring traffic posted first and completed last
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        IntBuffer p2pSend = ints(4, 0), p2pRecv = ints(4, -1);
        for (int i = 0; i < 4; i++) p2pSend.put(i, v(rank, i) + round);
        Request pr = w.iRecv(p2pRecv, 4, MPI.INT, left, 77 + round);
        Request ps = w.iSend(p2pSend, 4, MPI.INT, right, 77 + round);

        Request bar = w.iBarrier();

        IntBuffer bc = ints(5, -1);
        if (rank == root) for (int i = 0; i < 5; i++) bc.put(i, 1000 * round + i * i);
        Request rBcast = w.iBcast(bc, 5, MPI.INT, root);

        IntBuffer gs = ints(n, 0), gr = ints(n * size, -1);
        for (int i = 0; i < n; i++) gs.put(i, v(rank, i) * (round + 1));
        Request rGather = w.iGather(gs, n, MPI.INT, gr, n, MPI.INT, other);

        int[] gvCounts = new int[size], gvDispls = new int[size];
        int off = 1;
        for (int r = size - 1; r >= 0; r--) {
            gvCounts[r] = r + 1;
            gvDispls[r] = off;
            off += r + 1 + 1;
        }
        int gvTotal = off;
        IntBuffer gvs = ints(gvCounts[rank], 0), gvr = ints(gvTotal, -3);
        for (int i = 0; i < gvCounts[rank]; i++) gvs.put(i, -v(rank, i));
        Request rGatherv = w.iGatherv(gvs, gvCounts[rank], MPI.INT, gvr, gvCounts, gvDispls, MPI.INT, root);

        DoubleBuffer ss = MPI.newDoubleBuffer(n * size), sr = MPI.newDoubleBuffer(n);
        if (rank == other) for (int j = 0; j < n * size; j++) ss.put(j, j * 0.5 + round);
        Request rScatter = w.iScatter(ss, n, MPI.DOUBLE, sr, n, MPI.DOUBLE, other);

        IntBuffer ags = ints(2, 0), agr = ints(2 * size, -1);
        ags.put(0, v(rank, 0) + round);
        ags.put(1, v(rank, 1) + round);
        Request rAllGather = w.iAllGather(ags, 2, MPI.INT, agr, 2, MPI.INT);

        LongBuffer agvs = MPI.newLongBuffer(gvCounts[rank]), agvr = MPI.newLongBuffer(gvTotal);
        for (int i = 0; i < gvCounts[rank]; i++) agvs.put(i, (1L << 35) * rank + i);
        for (int j = 0; j < gvTotal; j++) agvr.put(j, -4);
        Request rAllGatherv = w.iAllGatherv(agvs, gvCounts[rank], MPI.LONG, agvr, gvCounts, gvDispls, MPI.LONG);

        IntBuffer a2s = ints(2 * size, 0), a2r = ints(2 * size, -1);
        for (int d = 0; d < size; d++)
            for (int k = 0; k < 2; k++) a2s.put(d * 2 + k, rank * 100 + d * 10 + k + round);
        Request rAllToAll = w.iAllToAll(a2s, 2, MPI.INT, a2r, 2, MPI.INT);

        int[] sc = new int[size], sd = new int[size], rc = new int[size], rd = new int[size];
        off = 0;
        for (int d = 0; d < size; d++) {
            sc[d] = (rank + d) % 3 + 1;
            sd[d] = off;
            off += sc[d] + 1;
        }
        IntBuffer a2vs = ints(off, -1);
        for (int d = 0; d < size; d++)
            for (int k = 0; k < sc[d]; k++) a2vs.put(sd[d] + k, rank * 1000 + d * 10 + k);
        off = 2;
        for (int s = size - 1; s >= 0; s--) {
            rc[s] = (s + rank) % 3 + 1;
            rd[s] = off;
            off += rc[s] + 2;
        }
        int a2vTotal = off;
        IntBuffer a2vr = ints(a2vTotal, -8);
        Request rAllToAllv = w.iAllToAllv(a2vs, sc, sd, MPI.INT, a2vr, rc, rd, MPI.INT);

        int m = 4;
        IntBuffer rs = ints(m, 0), rr = ints(m, 12345);
        for (int i = 0; i < m; i++) rs.put(i, iv(rank, i));
        Request rReduce = w.iReduce(rs, rr, m, MPI.INT, MPI.SUM, root);

        DoubleBuffer ars = MPI.newDoubleBuffer(m), arr = MPI.newDoubleBuffer(m);
        for (int i = 0; i < m; i++) ars.put(i, (rank + 1) * 0.25 - i);
        Request rAllReduce = w.iAllReduce(ars, arr, m, MPI.DOUBLE, MPI.MAX);

        IntBuffer rsbs = ints(2 * size, 0), rsbr = ints(2, -1);
        for (int j = 0; j < 2 * size; j++) rsbs.put(j, iv(rank, j) + j);
        Request rRsb = w.iReduceScatterBlock(rsbs, rsbr, 2, MPI.INT, MPI.SUM);

        IntBuffer scs = ints(m, 0), scr = ints(m, -1), exr = ints(m, -1);
        for (int i = 0; i < m; i++) scs.put(i, iv(rank, i) * (round + 2));
        Request rScan = w.iScan(scs, scr, m, MPI.INT, MPI.SUM);
        Request rExScan = w.iExScan(scs, exr, m, MPI.INT, MPI.SUM);

        Request[] all = {bar, rBcast, rGather, rGatherv, rScatter, rAllGather, rAllGatherv, rAllToAll, rAllToAllv,
            rReduce, rAllReduce, rRsb, rScan, rExScan, pr, ps};
        if (round == 0) {
            Request.waitAll(all);
        } else {
            // second round: complete by polling with testAll while the requests progress
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Request.testAll(all)) {
                Check.that(System.nanoTime() < deadline, "testAll never completed");
                Thread.onSpinWait();
            }
        }
        String tag = " (round " + round + ")";

        for (int i = 0; i < 4; i++) Check.equal(v(left, i) + round, p2pRecv.get(i), "overlapped p2p [" + i + "]" + tag);
        for (int i = 0; i < 5; i++) Check.equal(1000 * round + i * i, bc.get(i), "iBcast [" + i + "]" + tag);
        if (rank == other) {
            for (int r = 0; r < size; r++)
                for (int i = 0; i < n; i++) Check.equal(v(r, i) * (round + 1), gr.get(r * n + i), "iGather [" + r + "," + i + "]" + tag);
        }
        if (rank == root) {
            int[] exp = new int[gvTotal], got = new int[gvTotal];
            java.util.Arrays.fill(exp, -3);
            for (int r = 0; r < size; r++)
                for (int i = 0; i < gvCounts[r]; i++) exp[gvDispls[r] + i] = -v(r, i);
            for (int j = 0; j < gvTotal; j++) got[j] = gvr.get(j);
            Check.array(exp, got, "iGatherv" + tag);
        }
        for (int i = 0; i < n; i++) Check.equal((rank * n + i) * 0.5 + round, sr.get(i), "iScatter [" + i + "]" + tag);
        for (int r = 0; r < size; r++) {
            Check.equal(v(r, 0) + round, agr.get(2 * r), "iAllGather [" + r + ",0]" + tag);
            Check.equal(v(r, 1) + round, agr.get(2 * r + 1), "iAllGather [" + r + ",1]" + tag);
        }
        {
            long[] exp = new long[gvTotal], got = new long[gvTotal];
            java.util.Arrays.fill(exp, -4);
            for (int r = 0; r < size; r++)
                for (int i = 0; i < gvCounts[r]; i++) exp[gvDispls[r] + i] = (1L << 35) * r + i;
            for (int j = 0; j < gvTotal; j++) got[j] = agvr.get(j);
            Check.equal(java.util.Arrays.toString(exp), java.util.Arrays.toString(got), "iAllGatherv long" + tag);
        }
        for (int s = 0; s < size; s++)
            for (int k = 0; k < 2; k++) Check.equal(s * 100 + rank * 10 + k + round, a2r.get(s * 2 + k), "iAllToAll" + tag);
        {
            int[] exp = new int[a2vTotal], got = new int[a2vTotal];
            java.util.Arrays.fill(exp, -8);
            for (int s = 0; s < size; s++)
                for (int k = 0; k < rc[s]; k++) exp[rd[s] + k] = s * 1000 + rank * 10 + k;
            for (int j = 0; j < a2vTotal; j++) got[j] = a2vr.get(j);
            Check.array(exp, got, "iAllToAllv" + tag);
        }
        for (int i = 0; i < m; i++) {
            int sum = 0, inc = 0;
            double mx = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < size; r++) {
                sum += iv(r, i);
                mx = Math.max(mx, (r + 1) * 0.25 - i);
                if (r <= rank) inc += iv(r, i) * (round + 2);
            }
            if (rank == root) Check.equal(sum, rr.get(i), "iReduce [" + i + "]" + tag);
            else Check.equal(12345, rr.get(i), "iReduce non-root recv untouched" + tag);
            Check.equal(mx, arr.get(i), "iAllReduce MAX [" + i + "]" + tag);
            Check.equal(inc, scr.get(i), "iScan [" + i + "]" + tag);
            if (rank > 0) Check.equal(inc - iv(rank, i) * (round + 2), exr.get(i), "iExScan [" + i + "]" + tag);
        }
        for (int k = 0; k < 2; k++) {
            int j = rank * 2 + k, e = 0;
            for (int r = 0; r < size; r++) e += iv(r, j) + j;
            Check.equal(e, rsbr.get(k), "iReduceScatterBlock [" + k + "]" + tag);
        }
    }

    static void inPlace() throws MPIException {
        IntBuffer ar = ints(3, 0);
        for (int i = 0; i < 3; i++) ar.put(i, iv(rank, i));
        IntBuffer ag = ints(2 * size, -1);
        ag.put(2 * rank, v(rank, 0));
        ag.put(2 * rank + 1, v(rank, 1));
        Request a = w.iAllReduce(ar, 3, MPI.INT, MPI.MIN);
        Request b = w.iAllGather(ag, 2, MPI.INT);
        Request.waitAll(new Request[] {a, b});
        for (int i = 0; i < 3; i++) {
            int e = Integer.MAX_VALUE;
            for (int r = 0; r < size; r++) e = Math.min(e, iv(r, i));
            Check.equal(e, ar.get(i), "iAllReduce in place MIN [" + i + "]");
        }
        for (int r = 0; r < size; r++) {
            Check.equal(v(r, 0), ag.get(2 * r), "iAllGather in place [" + r + ",0]");
            Check.equal(v(r, 1), ag.get(2 * r + 1), "iAllGather in place [" + r + ",1]");
        }
    }

    /** every rank as root, one request per root outstanding together. */
    static void rootedEach() throws MPIException {
        Request[] reqs = new Request[2 * size];
        IntBuffer[] bufs = new IntBuffer[size];
        LongBuffer[] red = new LongBuffer[size];
        LongBuffer mine = MPI.newLongBuffer(2);
        mine.put(0, rank + 1);
        mine.put(1, (long) rank << 40);
        for (int root = 0; root < size; root++) {
            bufs[root] = ints(3, -1);
            if (rank == root) for (int i = 0; i < 3; i++) bufs[root].put(i, root * 11 + i);
            reqs[2 * root] = w.iBcast(bufs[root], 3, MPI.INT, root);
            red[root] = MPI.newLongBuffer(2);
            reqs[2 * root + 1] = w.iReduce(mine, red[root], 2, MPI.LONG, MPI.PROD, root);
        }
        Request.waitAll(reqs);
        for (int root = 0; root < size; root++) {
            for (int i = 0; i < 3; i++) Check.equal(root * 11 + i, bufs[root].get(i), "iBcast root " + root);
        }
        long fact = 1;
        for (int r = 0; r < size; r++) fact *= r + 1;
        Check.equal(fact, red[rank].get(0), "iReduce PROD long at root " + rank);
        Check.equal(0, red[rank].get(1), "iReduce PROD long (rank 0 contributes 0)");
    }
}
