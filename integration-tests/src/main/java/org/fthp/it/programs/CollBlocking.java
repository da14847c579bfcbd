package org.fthp.it.programs;

import java.util.Arrays;

import mpi.CartComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;

/**
 * Blocking collectives on COMM_WORLD with exact expected values:
 * barrier, bcast, gather(v), scatter(v), allGather(v), allToAll(v), reduce/allReduce
 * (SUM/MAX/MIN/PROD/LAND/BOR/BXOR on int/long/double), reduceScatter(Block), scan/exScan,
 * the in-place overloads, neighbour collectives on a periodic 1-D CartComm and a
 * bitwise-identical order-sensitive double allReduce.
 */
public final class CollBlocking {

    static Intracomm w;
    static int rank, size;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        w = MPI.COMM_WORLD;
        rank = w.getRank();
        size = w.getSize();
        Check.runAll(w, "CollBlocking", () -> {
            barrier();
            bcast();
            gather();
            gatherv();
            scatter();
            scatterv();
            allGather();
            allToAll();
            reduceInt();
            reduceLong();
            reduceDouble();
            reduceScatter();
            scans();
            inPlace();
            neighbors();
            orderSensitiveDouble();
        });
        MPI.Finalize();
    }

    static int v(int r, int i) {
        return r * 100 + i + 1;
    }

    static int[] filled(int n, int value) {
        int[] a = new int[n];
        Arrays.fill(a, value);
        return a;
    }

    static void barrier() throws MPIException {
        // A barrier between two rounds of ring messages: a message tagged with round 1 must not be
        // overtaken; at minimum every rank passes it and the counter exchange afterwards works.
        for (int k = 0; k < 3; k++) {
            w.barrier();
        }
    }

    static void bcast() throws MPIException {
        for (int root = 0; root < size; root++) {
            int[] ib = rank == root ? new int[] {root, 7, -3, v(root, 9), Integer.MIN_VALUE} : filled(5, -1);
            w.bcast(ib, 5, MPI.INT, root);
            Check.array(new int[] {root, 7, -3, v(root, 9), Integer.MIN_VALUE}, ib, "bcast int root " + root);
            long[] lb = new long[3];
            if (rank == root) {
                lb = new long[] {Long.MAX_VALUE - root, 1L << 40, -root};
            }
            w.bcast(lb, 3, MPI.LONG, root);
            Check.equal(Long.MAX_VALUE - root, lb[0], "bcast long[0]");
            Check.equal(1L << 40, lb[1], "bcast long[1]");
            Check.equal(-root, lb[2], "bcast long[2]");
            double[] db = new double[4];
            if (rank == root) {
                db = new double[] {Math.PI * root, -0.0, Double.MIN_VALUE, 1e300};
            }
            w.bcast(db, 4, MPI.DOUBLE, root);
            Check.array(new double[] {Math.PI * root, -0.0, Double.MIN_VALUE, 1e300}, db, "bcast double root " + root);
        }
    }

    static void gather() throws MPIException {
        int n = 3;
        for (int root = 0; root < size; root++) {
            int[] send = new int[n];
            for (int i = 0; i < n; i++) send[i] = v(rank, i) + root;
            int[] recv = filled(n * size, -9);
            w.gather(send, n, MPI.INT, recv, n, MPI.INT, root);
            if (rank == root) {
                int[] exp = new int[n * size];
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < n; i++) exp[r * n + i] = v(r, i) + root;
                Check.array(exp, recv, "gather root " + root);
            } else {
                Check.array(filled(n * size, -9), recv, "gather non-root recv untouched");
            }
        }
    }

    /** counts r+1, blocks placed in reverse rank order with 2-element gaps. */
    static int[][] vLayout() {
        int[] counts = new int[size];
        int[] displs = new int[size];
        int off = 1;
        for (int r = size - 1; r >= 0; r--) {
            counts[r] = r + 1;
            displs[r] = off;
            off += counts[r] + 2;
        }
        return new int[][] {counts, displs, {off}};
    }

    static void gatherv() throws MPIException {
        int[][] l = vLayout();
        int[] counts = l[0], displs = l[1];
        int total = l[2][0];
        for (int root = 0; root < size; root++) {
            int[] send = new int[counts[rank]];
            for (int i = 0; i < send.length; i++) send[i] = v(rank, i) * (root + 1);
            int[] recv = filled(total, -5);
            w.gatherv(send, counts[rank], MPI.INT, recv, counts, displs, MPI.INT, root);
            if (rank == root) {
                int[] exp = filled(total, -5);
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < counts[r]; i++) exp[displs[r] + i] = v(r, i) * (root + 1);
                Check.array(exp, recv, "gatherv root " + root);
            }
        }
    }

    static void scatter() throws MPIException {
        int n = 2;
        for (int root = 0; root < size; root++) {
            double[] send = new double[n * size];
            if (rank == root)
                for (int j = 0; j < send.length; j++) send[j] = root * 1000 + j + 0.5;
            double[] recv = new double[n];
            w.scatter(send, n, MPI.DOUBLE, recv, n, MPI.DOUBLE, root);
            double[] exp = new double[n];
            for (int i = 0; i < n; i++) exp[i] = root * 1000 + rank * n + i + 0.5;
            Check.array(exp, recv, "scatter root " + root);
        }
    }

    static void scatterv() throws MPIException {
        int[][] l = vLayout();
        int[] counts = l[0], displs = l[1];
        int total = l[2][0];
        for (int root = 0; root < size; root++) {
            long[] send = new long[total];
            if (rank == root)
                for (int j = 0; j < total; j++) send[j] = 1_000_000_000_000L * (root + 1) + j;
            long[] recv = new long[counts[rank] + 1];
            recv[counts[rank]] = -77;
            w.scatterv(send, counts, displs, MPI.LONG, recv, counts[rank], MPI.LONG, root);
            for (int i = 0; i < counts[rank]; i++)
                Check.equal(1_000_000_000_000L * (root + 1) + displs[rank] + i, recv[i], "scatterv root " + root + " [" + i + "]");
            Check.equal(-77, recv[counts[rank]], "scatterv must not write past recvcount");
        }
    }

    static void allGather() throws MPIException {
        int[] send = {v(rank, 0), v(rank, 1)};
        int[] recv = filled(2 * size, -1);
        w.allGather(send, 2, MPI.INT, recv, 2, MPI.INT);
        int[] exp = new int[2 * size];
        for (int r = 0; r < size; r++) {
            exp[2 * r] = v(r, 0);
            exp[2 * r + 1] = v(r, 1);
        }
        Check.array(exp, recv, "allGather");

        int[][] l = vLayout();
        int[] counts = l[0], displs = l[1];
        int total = l[2][0];
        int[] vs = new int[counts[rank]];
        for (int i = 0; i < vs.length; i++) vs[i] = -v(rank, i);
        int[] vr = filled(total, 42);
        w.allGatherv(vs, vs.length, MPI.INT, vr, counts, displs, MPI.INT);
        int[] vexp = filled(total, 42);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++) vexp[displs[r] + i] = -v(r, i);
        Check.array(vexp, vr, "allGatherv");
    }

    static void allToAll() throws MPIException {
        int n = 2;
        int[] send = new int[n * size];
        for (int d = 0; d < size; d++)
            for (int k = 0; k < n; k++) send[d * n + k] = rank * 100 + d * 10 + k;
        int[] recv = new int[n * size];
        w.allToAll(send, n, MPI.INT, recv, n, MPI.INT);
        int[] exp = new int[n * size];
        for (int s = 0; s < size; s++)
            for (int k = 0; k < n; k++) exp[s * n + k] = s * 100 + rank * 10 + k;
        Check.array(exp, recv, "allToAll");

        // allToAllv: rank r sends (r+d)%3+1 elements to d; send blocks separated by 1-gaps,
        // receive blocks in reverse source order with 2-gaps.
        int[] scounts = new int[size], sdispls = new int[size];
        int[] rcounts = new int[size], rdispls = new int[size];
        int off = 0;
        for (int d = 0; d < size; d++) {
            scounts[d] = (rank + d) % 3 + 1;
            sdispls[d] = off;
            off += scounts[d] + 1;
        }
        int[] sbuf = filled(off, -1);
        for (int d = 0; d < size; d++)
            for (int k = 0; k < scounts[d]; k++) sbuf[sdispls[d] + k] = rank * 1000 + d * 10 + k;
        off = 2;
        for (int s = size - 1; s >= 0; s--) {
            rcounts[s] = (s + rank) % 3 + 1;
            rdispls[s] = off;
            off += rcounts[s] + 2;
        }
        int[] rbuf = filled(off, -8);
        w.allToAllv(sbuf, scounts, sdispls, MPI.INT, rbuf, rcounts, rdispls, MPI.INT);
        int[] rexp = filled(off, -8);
        for (int s = 0; s < size; s++)
            for (int k = 0; k < rcounts[s]; k++) rexp[rdispls[s] + k] = s * 1000 + rank * 10 + k;
        Check.array(rexp, rbuf, "allToAllv");
    }

    // ---- reductions ------------------------------------------------------------------

    static final int N = 6;

    static int iv(int r, int i) {
        return (r * 7 + i * 3) % 11 - 3; // includes negatives and zeros
    }

    static int ip(int r, int i) {
        return (r + i) % 3 + 1 - (i == 4 ? 3 : 0); // small factors, some negative, for PROD
    }

    static int ib(int r, int i) {
        return ((r + 1) * (i * 37 + 5)) ^ (i << (r + 3));
    }

    interface IntOp { long apply(long a, long b); }

    static long foldLong(int[] perRank, IntOp f) {
        long acc = perRank[0];
        for (int r = 1; r < perRank.length; r++) acc = f.apply(acc, perRank[r]);
        return acc;
    }

    static int[] col(java.util.function.IntBinaryOperator gen, int i) {
        int[] c = new int[size];
        for (int r = 0; r < size; r++) c[r] = gen.applyAsInt(r, i);
        return c;
    }

    record Case(String name, Op op, java.util.function.IntBinaryOperator gen, IntOp f) {}

    static Case[] intCases() {
        return new Case[] {
            new Case("SUM", MPI.SUM, CollBlocking::iv, Long::sum),
            new Case("MAX", MPI.MAX, CollBlocking::iv, Math::max),
            new Case("MIN", MPI.MIN, CollBlocking::iv, Math::min),
            new Case("PROD", MPI.PROD, CollBlocking::ip, (a, b) -> a * b),
            new Case("LAND", MPI.LAND, CollBlocking::iv, (a, b) -> (a != 0 && b != 0) ? 1 : 0),
            new Case("BOR", MPI.BOR, CollBlocking::ib, (a, b) -> a | b),
            new Case("BXOR", MPI.BXOR, CollBlocking::ib, (a, b) -> a ^ b),
        };
    }

    static void reduceInt() throws MPIException {
        int root = size - 1;
        for (Case c : intCases()) {
            int[] send = new int[N];
            int[] exp = new int[N];
            for (int i = 0; i < N; i++) {
                send[i] = c.gen.applyAsInt(rank, i);
                exp[i] = (int) foldLong(col(c.gen, i), c.f);
            }
            int[] recv = filled(N, 12345);
            w.allReduce(send, recv, N, MPI.INT, c.op);
            Check.array(exp, recv, "allReduce int " + c.name);
            int[] rr = filled(N, 12345);
            w.reduce(send, rr, N, MPI.INT, c.op, root);
            if (rank == root) Check.array(exp, rr, "reduce int " + c.name);
            else Check.array(filled(N, 12345), rr, "reduce int non-root recv untouched " + c.name);
        }
    }

    static void reduceLong() throws MPIException {
        int root = 0;
        for (Case c : intCases()) {
            long scale = c.name.equals("PROD") ? 1000L : (1L << 33);
            long[] send = new long[N];
            long[] exp = new long[N];
            for (int i = 0; i < N; i++) {
                int[] cl = col(c.gen, i);
                long[] lc = new long[size];
                for (int r = 0; r < size; r++) lc[r] = cl[r] * scale + (c.name.equals("BXOR") || c.name.equals("BOR") ? r : 0);
                send[i] = lc[rank];
                long acc = lc[0];
                for (int r = 1; r < size; r++) acc = c.f.apply(acc, lc[r]);
                exp[i] = acc;
            }
            long[] recv = new long[N];
            w.allReduce(send, recv, N, MPI.LONG, c.op);
            for (int i = 0; i < N; i++) Check.equal(exp[i], recv[i], "allReduce long " + c.name + " [" + i + "]");
            long[] rr = new long[N];
            w.reduce(send, rr, N, MPI.LONG, c.op, root);
            if (rank == root)
                for (int i = 0; i < N; i++) Check.equal(exp[i], rr[i], "reduce long " + c.name + " [" + i + "]");
        }
    }

    static double dv(int r, int i) {
        return (r + 1) * 0.5 - i * 0.25 + (i == 3 ? -4 : 0); // dyadic: exact in any order
    }

    static void reduceDouble() throws MPIException {
        Op[] ops = {MPI.SUM, MPI.MAX, MPI.MIN, MPI.PROD};
        String[] names = {"SUM", "MAX", "MIN", "PROD"};
        for (int o = 0; o < ops.length; o++) {
            double[] send = new double[N];
            double[] exp = new double[N];
            for (int i = 0; i < N; i++) {
                send[i] = dv(rank, i);
                double acc = dv(0, i);
                for (int r = 1; r < size; r++) {
                    double x = dv(r, i);
                    acc = switch (o) {
                        case 0 -> acc + x;
                        case 1 -> Math.max(acc, x);
                        case 2 -> Math.min(acc, x);
                        default -> acc * x;
                    };
                }
                exp[i] = acc;
            }
            double[] recv = new double[N];
            w.allReduce(send, recv, N, MPI.DOUBLE, ops[o]);
            Check.array(exp, recv, "allReduce double " + names[o]);
            for (int root = 0; root < size; root++) {
                double[] rr = new double[N];
                w.reduce(send, rr, N, MPI.DOUBLE, ops[o], root);
                if (rank == root) Check.array(exp, rr, "reduce double " + names[o] + " root " + root);
            }
        }
    }

    static void reduceScatter() throws MPIException {
        int[] counts = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = (r % 2 == 0) ? 2 : 1;
            total += counts[r];
        }
        int[] send = new int[total];
        for (int j = 0; j < total; j++) send[j] = iv(rank, j) * 10 + j;
        int[] recv = filled(counts[rank] + 1, -1);
        w.reduceScatter(send, recv, counts, MPI.INT, MPI.SUM);
        int start = 0;
        for (int r = 0; r < rank; r++) start += counts[r];
        for (int k = 0; k < counts[rank]; k++) {
            int j = start + k;
            int e = 0;
            for (int r = 0; r < size; r++) e += iv(r, j) * 10 + j;
            Check.equal(e, recv[k], "reduceScatter [" + k + "]");
        }
        Check.equal(-1, recv[counts[rank]], "reduceScatter must not write past its block");

        int b = 3;
        double[] ds = new double[b * size];
        for (int j = 0; j < ds.length; j++) ds[j] = dv(rank, j);
        double[] dr = new double[b];
        w.reduceScatterBlock(ds, dr, b, MPI.DOUBLE, MPI.MAX);
        for (int k = 0; k < b; k++) {
            double e = dv(0, rank * b + k);
            for (int r = 1; r < size; r++) e = Math.max(e, dv(r, rank * b + k));
            Check.equal(e, dr[k], "reduceScatterBlock [" + k + "]");
        }
    }

    static void scans() throws MPIException {
        int[] send = new int[N];
        for (int i = 0; i < N; i++) send[i] = iv(rank, i);
        int[] recv = new int[N];
        w.scan(send, recv, N, MPI.INT, MPI.SUM);
        int[] ex = new int[N];
        w.exScan(send, ex, N, MPI.INT, MPI.SUM);
        long[] ls = {rank + 1L, 1L << (rank + 32)};
        long[] lr = new long[2];
        w.scan(ls, lr, 2, MPI.LONG, MPI.PROD);
        int[] mx = new int[N];
        w.exScan(send, mx, N, MPI.INT, MPI.MAX);
        for (int i = 0; i < N; i++) {
            int inc = 0;
            for (int r = 0; r <= rank; r++) inc += iv(r, i);
            Check.equal(inc, recv[i], "scan SUM [" + i + "]");
            if (rank > 0) {
                Check.equal(inc - iv(rank, i), ex[i], "exScan SUM [" + i + "]");
                int m = iv(0, i);
                for (int r = 1; r < rank; r++) m = Math.max(m, iv(r, i));
                Check.equal(m, mx[i], "exScan MAX [" + i + "]");
            }
        }
        long fact = 1, pw = 1;
        for (int r = 0; r <= rank; r++) {
            fact *= r + 1;
            pw *= 1L << (r + 32); // wraps: same as C
        }
        Check.equal(fact, lr[0], "scan PROD long [0]");
        Check.equal(pw, lr[1], "scan PROD long [1]");
    }

    static void inPlace() throws MPIException {
        int n = 2;
        // gather in place: root's own contribution already sits in its slot
        for (int root = 0; root < size; root++) {
            if (rank == root) {
                int[] buf = filled(n * size, -1);
                buf[root * n] = v(root, 0);
                buf[root * n + 1] = v(root, 1);
                w.gather(buf, n, MPI.INT, root);
                int[] exp = new int[n * size];
                for (int r = 0; r < size; r++) {
                    exp[r * n] = v(r, 0);
                    exp[r * n + 1] = v(r, 1);
                }
                Check.array(exp, buf, "gather in place root " + root);
            } else {
                w.gather(new int[] {v(rank, 0), v(rank, 1)}, n, MPI.INT, root);
            }
        }
        // scatter in place: root keeps its slot of the send buffer, others receive
        for (int root = 0; root < size; root++) {
            if (rank == root) {
                int[] buf = new int[n * size];
                for (int j = 0; j < buf.length; j++) buf[j] = 500 + root * 50 + j;
                int[] copy = buf.clone();
                w.scatter(buf, n, MPI.INT, root);
                Check.array(copy, buf, "scatter in place: root buffer unchanged");
            } else {
                int[] buf = filled(n, -1);
                w.scatter(buf, n, MPI.INT, root);
                Check.array(new int[] {500 + root * 50 + rank * n, 500 + root * 50 + rank * n + 1}, buf,
                        "scatter in place non-root root " + root);
            }
        }
        // allGather in place
        {
            int[] buf = filled(n * size, -1);
            buf[rank * n] = v(rank, 3);
            buf[rank * n + 1] = v(rank, 4);
            w.allGather(buf, n, MPI.INT);
            int[] exp = new int[n * size];
            for (int r = 0; r < size; r++) {
                exp[r * n] = v(r, 3);
                exp[r * n + 1] = v(r, 4);
            }
            Check.array(exp, buf, "allGather in place");
        }
        // allGatherv in place
        {
            int[][] l = vLayout();
            int[] counts = l[0], displs = l[1];
            int total = l[2][0];
            int[] buf = filled(total, 9);
            for (int i = 0; i < counts[rank]; i++) buf[displs[rank] + i] = v(rank, i + 10);
            w.allGatherv(buf, counts, displs, MPI.INT);
            int[] exp = filled(total, 9);
            for (int r = 0; r < size; r++)
                for (int i = 0; i < counts[r]; i++) exp[displs[r] + i] = v(r, i + 10);
            Check.array(exp, buf, "allGatherv in place");
        }
        // reduce in place (root's buffer is its input and the result)
        for (int root = 0; root < size; root++) {
            int[] buf = new int[N];
            for (int i = 0; i < N; i++) buf[i] = iv(rank, i);
            int[] orig = buf.clone();
            w.reduce(buf, N, MPI.INT, MPI.SUM, root);
            if (rank == root) {
                int[] exp = new int[N];
                for (int i = 0; i < N; i++) for (int r = 0; r < size; r++) exp[i] += iv(r, i);
                Check.array(exp, buf, "reduce in place root " + root);
            } else {
                Check.array(orig, buf, "reduce in place: non-root send buffer unchanged");
            }
        }
        // allReduce in place
        {
            double[] buf = new double[N];
            for (int i = 0; i < N; i++) buf[i] = dv(rank, i);
            w.allReduce(buf, N, MPI.DOUBLE, MPI.MIN);
            for (int i = 0; i < N; i++) {
                double e = dv(0, i);
                for (int r = 1; r < size; r++) e = Math.min(e, dv(r, i));
                Check.equal(e, buf[i], "allReduce in place MIN [" + i + "]");
            }
            long[] lb = {rank, 1L << rank};
            w.allReduce(lb, 2, MPI.LONG, MPI.BOR);
            Check.equal(size == 2 ? 1 : 3, lb[0], "allReduce in place BOR long [0]");
            Check.equal((1L << size) - 1, lb[1], "allReduce in place BOR long [1]");
        }
        // reduceScatterBlock in place: buffer holds size blocks; result in block 0
        {
            int b = 2;
            int[] buf = new int[b * size];
            for (int j = 0; j < buf.length; j++) buf[j] = iv(rank, j) + 3 * j;
            w.reduceScatterBlock(buf, b, MPI.INT, MPI.SUM);
            for (int k = 0; k < b; k++) {
                int j = rank * b + k;
                int e = 0;
                for (int r = 0; r < size; r++) e += iv(r, j) + 3 * j;
                Check.equal(e, buf[k], "reduceScatterBlock in place [" + k + "]");
            }
        }
        // scan in place
        {
            int[] buf = new int[N];
            for (int i = 0; i < N; i++) buf[i] = ib(rank, i);
            w.scan(buf, N, MPI.INT, MPI.BXOR);
            for (int i = 0; i < N; i++) {
                int e = 0;
                for (int r = 0; r <= rank; r++) e ^= ib(r, i);
                Check.equal(e, buf[i], "scan in place BXOR [" + i + "]");
            }
        }
    }

    static void neighbors() throws MPIException {
        CartComm ring = w.createCart(new int[] {size}, new boolean[] {true}, false);
        int me = ring.getRank();
        int left = (me - 1 + size) % size, right = (me + 1) % size;
        // neighbour order for a cartesian topology: per dimension, negative then positive direction
        int[] send = {me * 10 + 1, me * 10 + 2};
        int[] recv = filled(4, -1);
        ring.neighborAllGather(send, 2, MPI.INT, recv, 2, MPI.INT);
        Check.array(new int[] {left * 10 + 1, left * 10 + 2, right * 10 + 1, right * 10 + 2}, recv,
                "neighborAllGather on periodic ring");

        // block 0 goes to the left neighbour, block 1 to the right one
        int[] s2 = {me * 100 + 0, me * 100 + 1, me * 100 + 50, me * 100 + 51};
        int[] r2 = filled(4, -1);
        ring.neighborAllToAll(s2, 2, MPI.INT, r2, 2, MPI.INT);
        // from the left neighbour I get what it sent to its right (block 1), from the right what it sent left (block 0)
        Check.array(new int[] {left * 100 + 50, left * 100 + 51, right * 100 + 0, right * 100 + 1}, r2,
                "neighborAllToAll on periodic ring");
        ring.free();
    }

    static void orderSensitiveDouble() throws MPIException {
        // values whose sum depends on the association order: every rank must still get the same bits
        int n = 8;
        double[] send = new double[n];
        for (int i = 0; i < n; i++) {
            send[i] = (rank % 2 == 0 ? 1e16 : -1e16) * (i + 1) + 1.0 / (3 + rank + i) + Math.sqrt(rank + 2) * 1e-3;
        }
        double[] res = new double[n];
        w.allReduce(send, res, n, MPI.DOUBLE, MPI.SUM);
        long[] bits = new long[n];
        for (int i = 0; i < n; i++) bits[i] = Double.doubleToRawLongBits(res[i]);
        long[] all = new long[n * size];
        w.gather(bits, n, MPI.LONG, all, n, MPI.LONG, 0);
        if (rank == 0) {
            for (int r = 1; r < size; r++)
                for (int i = 0; i < n; i++)
                    Check.equal(all[i], all[r * n + i], "allReduce bits rank " + r + " element " + i + " differ from rank 0");
        }
    }
}
