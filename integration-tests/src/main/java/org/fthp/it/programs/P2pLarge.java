package org.fthp.it.programs;

import java.nio.DoubleBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * Large messages (whose payload travels apart from its header) and the
 * header-only messages probes must read: counts seen by probes, wildcards,
 * several in flight at once, truncation, direct buffers and arrays. Ranks work
 * in pairs (0,1), (2,3), ...; needs an even number of ranks.
 */
public final class P2pLarge {

    static final int BIG = 300_000; // doubles: 2.4 MB, well above the rendezvous threshold

    static double v(int sender, int tag, int i) {
        return sender * 1e6 + tag * 1e3 + i * 0.5;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        Check.that(w.getSize() % 2 == 0, "needs an even number of ranks");
        int peer = rank ^ 1;
        boolean sender = rank % 2 == 0;

        // 1. direct buffers both sides, blocking; then arrays both sides
        if (sender) {
            w.send(filledBuffer(rank, 1, BIG), BIG, MPI.DOUBLE, peer, 1);
            w.send(filledArray(rank, 2, BIG), BIG, MPI.DOUBLE, peer, 2);
        } else {
            DoubleBuffer b = MPI.newDoubleBuffer(BIG);
            Status s = w.recv(b, BIG, MPI.DOUBLE, peer, 1);
            checkBuffer(b, peer, 1, BIG, "direct buffer");
            Check.equal(BIG, s.getCount(MPI.DOUBLE), "count, direct");
            double[] a = new double[BIG];
            s = w.recv(a, BIG, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
            checkArray(a, peer, 2, BIG, "array via wildcards");
            Check.equal(peer, s.getSource(), "wildcard source");
            Check.equal(2, s.getTag(), "wildcard tag");
        }

        // 2. probe sees the payload size of a large message and of an empty one
        if (sender) {
            // nonblocking: a blocking large send may wait for its receive, which comes after tag 4
            DoubleBuffer big = filledBuffer(rank, 3, BIG - 7);
            Request r = w.iSend(big, BIG - 7, MPI.DOUBLE, peer, 3);
            w.send(new double[0], 0, MPI.DOUBLE, peer, 4);
            r.waitFor();
        } else {
            Status p = w.probe(peer, 3);
            Check.equal(BIG - 7, p.getCount(MPI.DOUBLE), "probed count of a large message");
            Status p0 = w.probe(peer, 4);
            Check.equal(0, p0.getCount(MPI.DOUBLE), "probed count of an empty message");
            Check.that(w.iProbe(peer, 3) != null, "probing again still sees the large message");
            double[] a = new double[p.getCount(MPI.DOUBLE)];
            Status s = w.recv(a, a.length, MPI.DOUBLE, peer, MPI.ANY_TAG);
            Check.equal(3, s.getTag(), "the probed message comes first");
            checkArray(a, peer, 3, BIG - 7, "probed large message");
            s = w.recv(new double[1], 1, MPI.DOUBLE, peer, 4);
            Check.equal(0, s.getCount(MPI.DOUBLE), "empty message count");
        }

        // 3. matched probe of a large message
        if (sender) {
            w.send(filledArray(rank, 5, BIG), BIG, MPI.DOUBLE, peer, 5);
        } else {
            Message m = new Message();
            Status p = m.mProbe(peer, 5, w);
            Check.equal(BIG, p.getCount(MPI.DOUBLE), "mprobed count");
            DoubleBuffer b = MPI.newDoubleBuffer(BIG);
            Status s = m.mRecv(b, BIG, MPI.DOUBLE);
            checkBuffer(b, peer, 5, BIG, "mrecv of a large message");
            Check.equal(5, s.getTag(), "mrecv tag");
        }

        // 4. several large messages in flight, received in the opposite order, nonblocking
        if (sender) {
            Request[] r = new Request[3];
            DoubleBuffer[] keep = new DoubleBuffer[3];
            for (int t = 0; t < 3; t++) {
                keep[t] = filledBuffer(rank, 10 + t, BIG);
                r[t] = w.iSend(keep[t], BIG, MPI.DOUBLE, peer, 10 + t);
            }
            Request.waitAll(r);
        } else {
            DoubleBuffer[] b = new DoubleBuffer[3];
            Request[] r = new Request[3];
            for (int t = 2; t >= 0; t--) {
                b[t] = MPI.newDoubleBuffer(BIG);
                r[t] = w.iRecv(b[t], BIG, MPI.DOUBLE, peer, 10 + t);
            }
            Status[] st = Request.waitAllStatus(r);
            for (int t = 0; t < 3; t++) {
                checkBuffer(b[t], peer, 10 + t, BIG, "in flight #" + t);
                Check.equal(BIG, st[t].getCount(MPI.DOUBLE), "count #" + t);
            }
        }

        // 5. synchronous send and sendRecv of large messages both ways
        if (sender) {
            w.sSend(filledArray(rank, 20, BIG), BIG, MPI.DOUBLE, peer, 20);
        } else {
            double[] a = new double[BIG];
            w.recv(a, BIG, MPI.DOUBLE, peer, 20);
            checkArray(a, peer, 20, BIG, "ssend");
        }
        double[] in = new double[BIG];
        w.sendRecv(filledArray(rank, 21, BIG), BIG, MPI.DOUBLE, peer, 21, in, BIG, MPI.DOUBLE, peer, 21);
        checkArray(in, peer, 21, BIG, "sendRecv");

        // 6. truncation of a large message is an error, and the job goes on
        if (sender) {
            w.send(filledArray(rank, 30, BIG), BIG, MPI.DOUBLE, peer, 30);
        } else {
            try {
                w.recv(new double[BIG / 2], BIG / 2, MPI.DOUBLE, peer, 30);
                Check.that(false, "truncated large receive must fail");
            } catch (MPIException e) {
                Check.equal(MPI.ERR_TRUNCATE, e.getErrorClass(), "truncation error class");
            }
        }
        // 7. truncation of a medium message (above Open MPI's 4 KiB eager limit, where its
        // shared-memory transport itself would write past a short receive buffer)
        int medium = 5000;
        if (sender) {
            w.send(filledArray(rank, 31, medium), medium, MPI.DOUBLE, peer, 31);
            w.send(filledArray(rank, 32, medium), medium, MPI.DOUBLE, peer, 32);
        } else {
            double[] guard = new double[medium];
            try {
                w.recv(new double[medium / 2], medium / 2, MPI.DOUBLE, peer, 31);
                Check.that(false, "truncated medium receive must fail");
            } catch (MPIException e) {
                Check.equal(MPI.ERR_TRUNCATE, e.getErrorClass(), "medium truncation error class");
            }
            w.recv(guard, medium, MPI.DOUBLE, peer, 32);
            checkArray(guard, peer, 32, medium, "message after a truncated one");
        }
        w.barrier();
        double[] sum = new double[1];
        w.allReduce(new double[] {1}, sum, 1, MPI.DOUBLE, MPI.SUM);
        Check.equal(w.getSize(), sum[0], "the job goes on");
        if (rank == 0) {
            System.out.println("P2pLarge OK np=" + w.getSize());
        }
        MPI.Finalize();
    }

    static DoubleBuffer filledBuffer(int sender, int tag, int n) {
        DoubleBuffer b = MPI.newDoubleBuffer(n);
        for (int i = 0; i < n; i++) {
            b.put(i, v(sender, tag, i));
        }
        return b;
    }

    static double[] filledArray(int sender, int tag, int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = v(sender, tag, i);
        }
        return a;
    }

    static void checkBuffer(DoubleBuffer b, int sender, int tag, int n, String what) {
        for (int i = 0; i < n; i++) {
            if (b.get(i) != v(sender, tag, i)) {
                throw new AssertionError(what + ": element " + i + " is " + b.get(i) + ", expected " + v(sender, tag, i));
            }
        }
    }

    static void checkArray(double[] a, int sender, int tag, int n, String what) {
        for (int i = 0; i < n; i++) {
            if (a[i] != v(sender, tag, i)) {
                throw new AssertionError(what + ": element " + i + " is " + a[i] + ", expected " + v(sender, tag, i));
            }
        }
    }
}
