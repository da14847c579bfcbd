package org.fthp.it.programs;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Non-blocking point-to-point with direct buffers: iSend/iRecv, waitAll,
 * waitAny, testAny, waitSome, testSome, testAll, test/testStatus polling,
 * getStatus, cancel, persistent requests, free of a send request, iSend to self, a burst of small sends
 * nobody waits for in between (more than the engine keeps untested).
 * Prints "P2pNonblocking OK rank r" at the end on every rank.
 */
public final class P2pNonblocking {

    static int rank, size, next, prev;
    static Comm world;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        next = (rank + 1) % size;
        prev = (rank - 1 + size) % size;

        ringWaitAll();
        waitAnyAllToAll();
        testAnyAllToAll();
        waitSomeAllToAll();
        testSomeAllToAll();
        testAllPolling();
        testAndTestStatusPolling();
        getStatus();
        cancel();
        persistent();
        freeSendRequest();
        sendToSelf();
        burst();

        world.barrier();
        System.out.println("P2pNonblocking OK rank " + rank);
        MPI.Finalize();
    }

    static int value(int from, int to, int i, int round) {
        return from * 1_000_000 + to * 10_000 + round * 100 + i;
    }

    static void ringWaitAll() throws MPIException {
        IntBuffer out = MPI.newIntBuffer(8);
        IntBuffer in = MPI.newIntBuffer(8);
        DoubleBuffer dout = MPI.newDoubleBuffer(3);
        DoubleBuffer din = MPI.newDoubleBuffer(3);
        for (int i = 0; i < 8; i++) out.put(i, value(rank, next, i, 0));
        for (int i = 0; i < 3; i++) dout.put(i, rank + i * 0.5);
        Request[] reqs = {
            world.iRecv(in, 8, MPI.INT, prev, 1),
            world.iRecv(din, 3, MPI.DOUBLE, next, 2),
            world.iSend(out, 8, MPI.INT, next, 1),
            world.iSend(dout, 3, MPI.DOUBLE, prev, 2),
        };
        Request.waitAll(reqs);
        for (Request r : reqs) {
            Check.that(r.isNull(), "request is null after waitAll");
        }
        for (int i = 0; i < 8; i++) Check.equal(value(prev, rank, i, 0), in.get(i), "ring iRecv [" + i + "]");
        for (int i = 0; i < 3; i++) Check.equal(next + i * 0.5, din.get(i), "reverse ring iRecv [" + i + "]");

        // waitAllStatus gives one status per request
        Request[] r2 = {
            world.iRecv(in, 8, MPI.INT, MPI.ANY_SOURCE, 3),
            world.iSend(out, 5, MPI.INT, next, 3),
        };
        Status[] sts = Request.waitAllStatus(r2);
        Check.equal(2, sts.length, "waitAllStatus length");
        Check.equal(prev, sts[0].getSource(), "waitAllStatus recv source");
        Check.equal(3, sts[0].getTag(), "waitAllStatus recv tag");
        Check.equal(5, sts[0].getCount(MPI.INT), "waitAllStatus recv count");
    }

    /**
     * 200 small sends to the next rank, nonblocking and blocking in turn, before any receive of the previous
     * rank's: each arrives whole and in order, and every send request is complete at the end.
     */
    static void burst() throws MPIException {
        int n = 200;
        Request[] sends = new Request[n];
        IntBuffer[] outs = new IntBuffer[n];
        int[] blocking = new int[2];
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) {
                outs[i] = MPI.newIntBuffer(2);
                outs[i].put(0, value(rank, next, i % 100, 7)).put(1, i);
                sends[i] = world.iSend(outs[i], 2, MPI.INT, next, 40);
            } else {
                blocking[0] = value(rank, next, i % 100, 7);
                blocking[1] = i;
                world.send(blocking, 2, MPI.INT, next, 40);
                sends[i] = world.iSend(MPI.newIntBuffer(1), 0, MPI.INT, next, 41);
            }
        }
        int[] in = new int[2];
        for (int i = 0; i < n; i++) {
            world.recv(in, 2, MPI.INT, prev, 40);
            Check.equal(value(prev, rank, i % 100, 7), in[0], "burst message " + i);
            Check.equal(i, in[1], "burst order " + i);
            if (i % 2 == 1) {
                world.recv(in, 0, MPI.INT, prev, 41);
            }
        }
        Request.waitAll(sends);
        for (Request r : sends) {
            Check.that(r.isNull(), "burst send request null after waitAll");
        }
    }

    /** Every rank sends one message to every other rank (tag = round). */
    static final class AllToAll {
        final Request[] recvs = new Request[size - 1];
        final Request[] sends = new Request[size - 1];
        final int[] from = new int[size - 1];
        final IntBuffer[] in = new IntBuffer[size - 1];
        final int round;

        AllToAll(int round) throws MPIException {
            this.round = round;
            int k = 0;
            for (int other = 0; other < size; other++) {
                if (other == rank) continue;
                from[k] = other;
                in[k] = MPI.newIntBuffer(4);
                recvs[k] = world.iRecv(in[k], 4, MPI.INT, other, round);
                k++;
            }
            k = 0;
            for (int other = 0; other < size; other++) {
                if (other == rank) continue;
                IntBuffer out = MPI.newIntBuffer(4);
                for (int i = 0; i < 4; i++) out.put(i, value(rank, other, i, round));
                sends[k++] = world.iSend(out, 4, MPI.INT, other, round);
            }
        }

        void checkData(int k) {
            for (int i = 0; i < 4; i++) {
                Check.equal(value(from[k], rank, i, round), in[k].get(i),
                        "round " + round + " data from " + from[k] + " [" + i + "]");
            }
        }

        void finish() throws MPIException {
            Request.waitAll(sends);
            for (int k = 0; k < recvs.length; k++) {
                Check.that(recvs[k].isNull(), "round " + round + ": recv request " + k + " null after completion");
                checkData(k);
            }
            world.barrier();
        }
    }

    static void waitAnyAllToAll() throws MPIException {
        AllToAll x = new AllToAll(10);
        boolean[] done = new boolean[x.recvs.length];
        int completed = 0;
        while (true) {
            int idx = Request.waitAny(x.recvs);
            if (idx == MPI.UNDEFINED) break;
            Check.that(idx >= 0 && idx < done.length, "waitAny index in range: " + idx);
            Check.that(!done[idx], "waitAny returned index " + idx + " twice");
            done[idx] = true;
            x.checkData(idx);
            completed++;
        }
        Check.equal(x.recvs.length, completed, "waitAny completions");
        x.finish();

        // waitAnyStatus: index and source in the status
        AllToAll y = new AllToAll(11);
        boolean[] done2 = new boolean[y.recvs.length];
        for (int c = 0; c < y.recvs.length; c++) {
            Status st = Request.waitAnyStatus(y.recvs);
            int idx = st.getIndex();
            Check.that(idx >= 0 && idx < done2.length && !done2[idx], "waitAnyStatus index " + idx);
            done2[idx] = true;
            Check.equal(y.from[idx], st.getSource(), "waitAnyStatus source");
            Check.equal(11, st.getTag(), "waitAnyStatus tag");
        }
        y.finish();
    }

    static void testAnyAllToAll() throws MPIException {
        AllToAll x = new AllToAll(12);
        boolean[] done = new boolean[x.recvs.length];
        int completed = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (completed < done.length) {
            Check.that(System.nanoTime() < deadline, "testAny never completed all requests");
            int idx = Request.testAny(x.recvs);
            if (idx == MPI.UNDEFINED) {
                Thread.onSpinWait();
                continue;
            }
            Check.that(idx >= 0 && idx < done.length, "testAny index in range: " + idx);
            Check.that(!done[idx], "testAny returned index " + idx + " twice");
            done[idx] = true;
            x.checkData(idx);
            completed++;
        }
        Check.equal(MPI.UNDEFINED, Request.testAny(x.recvs), "testAny on all-null requests");
        x.finish();
    }

    static void waitSomeAllToAll() throws MPIException {
        AllToAll x = new AllToAll(13);
        boolean[] done = new boolean[x.recvs.length];
        int completed = 0;
        while (true) {
            int[] idx = Request.waitSome(x.recvs);
            if (idx == null) break;
            Check.that(idx.length >= 1, "waitSome returns at least one index");
            for (int i : idx) {
                Check.that(i >= 0 && i < done.length && !done[i], "waitSome index " + i + " (in range, once)");
                done[i] = true;
                x.checkData(i);
                completed++;
            }
        }
        Check.equal(x.recvs.length, completed, "waitSome completions");
        x.finish();
    }

    static void testSomeAllToAll() throws MPIException {
        AllToAll x = new AllToAll(14);
        boolean[] done = new boolean[x.recvs.length];
        int completed = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (completed < done.length) {
            Check.that(System.nanoTime() < deadline, "testSome never completed all requests");
            int[] idx = Request.testSome(x.recvs);
            Check.that(idx != null, "testSome with active requests returns an array");
            for (int i : idx) {
                Check.that(i >= 0 && i < done.length && !done[i], "testSome index " + i + " (in range, once)");
                done[i] = true;
                x.checkData(i);
                completed++;
            }
        }
        x.finish();
        // testSomeStatus: statuses carry the index
        AllToAll y = new AllToAll(15);
        boolean[] done2 = new boolean[y.recvs.length];
        int c2 = 0;
        while (c2 < done2.length) {
            Status[] sts = Request.testSomeStatus(y.recvs);
            for (Status st : sts) {
                int i = st.getIndex();
                Check.that(i >= 0 && i < done2.length && !done2[i], "testSomeStatus index " + i);
                done2[i] = true;
                Check.equal(y.from[i], st.getSource(), "testSomeStatus source");
                c2++;
            }
        }
        y.finish();
    }

    static void testAllPolling() throws MPIException {
        AllToAll x = new AllToAll(16);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Request.testAll(x.recvs)) {
            Check.that(System.nanoTime() < deadline, "testAll never became true");
            Thread.onSpinWait();
        }
        x.finish();
        AllToAll y = new AllToAll(17);
        Status[] sts;
        while ((sts = Request.testAllStatus(y.recvs)) == null) {
            Check.that(System.nanoTime() < deadline, "testAllStatus never returned statuses");
        }
        Check.equal(y.recvs.length, sts.length, "testAllStatus length");
        for (int k = 0; k < sts.length; k++) {
            Check.equal(y.from[k], sts[k].getSource(), "testAllStatus source " + k);
            Check.equal(17, sts[k].getTag(), "testAllStatus tag " + k);
        }
        y.finish();
    }

    static void testAndTestStatusPolling() throws MPIException {
        LongBuffer in = MPI.newLongBuffer(2);
        LongBuffer out = MPI.newLongBuffer(2);
        out.put(0, rank * 3L).put(1, -rank * 5L);
        Request r = world.iRecv(in, 2, MPI.LONG, prev, 20);
        Request s = world.iSend(out, 2, MPI.LONG, next, 20);
        long deadline = System.nanoTime() + 60_000_000_000L;
        Status st;
        while ((st = r.testStatus()) == null) {
            Check.that(System.nanoTime() < deadline, "testStatus never completed");
        }
        Check.equal(prev, st.getSource(), "testStatus source");
        Check.equal(20, st.getTag(), "testStatus tag");
        Check.equal(2, st.getCount(MPI.LONG), "testStatus count");
        Check.equal(prev * 3L, in.get(0), "testStatus data [0]");
        Check.equal(-prev * 5L, in.get(1), "testStatus data [1]");
        while (!s.test()) {
            Check.that(System.nanoTime() < deadline, "send test never completed");
        }
        Check.that(s.isNull(), "completed send request is null");
        Check.that(r.isNull(), "completed recv request is null");
        // test() on a null request is true
        Check.that(s.test(), "test() of a completed (null) request");
        world.barrier();
    }

    static void getStatus() throws MPIException {
        IntBuffer in = MPI.newIntBuffer(3);
        IntBuffer out = MPI.newIntBuffer(3);
        for (int i = 0; i < 3; i++) out.put(i, value(rank, next, i, 21));
        Request r = world.iRecv(in, 3, MPI.INT, MPI.ANY_SOURCE, 21);
        Request s = world.iSend(out, 3, MPI.INT, next, 21);
        long deadline = System.nanoTime() + 60_000_000_000L;
        Status st;
        while ((st = r.getStatus()) == null) {
            Check.that(System.nanoTime() < deadline, "getStatus never reported completion");
        }
        Check.equal(prev, st.getSource(), "getStatus source");
        Check.equal(21, st.getTag(), "getStatus tag");
        Check.equal(3, st.getCount(MPI.INT), "getStatus count");
        Check.that(!r.isNull(), "getStatus does not free the request");
        Status ws = r.waitStatus();
        Check.equal(prev, ws.getSource(), "waitStatus after getStatus: source");
        Check.that(r.isNull(), "request null after waitStatus");
        for (int i = 0; i < 3; i++) Check.equal(value(prev, rank, i, 21), in.get(i), "getStatus data [" + i + "]");
        s.waitFor();
        world.barrier();
    }

    static void cancel() throws MPIException {
        IntBuffer in = MPI.newIntBuffer(4);
        in.put(0, -42);
        // nobody ever sends with tag 999
        Request r = world.iRecv(in, 4, MPI.INT, prev, 999);
        r.cancel();
        Status st = r.waitStatus();
        Check.that(st.isCancelled(), "cancelled iRecv: isCancelled");
        Check.equal(-42, in.get(0), "cancelled iRecv leaves buffer");
        // a completed receive is not cancelled
        IntBuffer out = MPI.newIntBuffer(1);
        out.put(0, rank);
        Request r2 = world.iRecv(in, 1, MPI.INT, prev, 22);
        world.send(out, 1, MPI.INT, next, 22);
        Status st2 = r2.waitStatus();
        Check.that(!st2.isCancelled(), "completed iRecv is not cancelled");
        Check.equal(prev, in.get(0), "iRecv data after a cancelled one");
        world.barrier();
    }

    static void persistent() throws MPIException {
        final int n = 6;
        DoubleBuffer out = MPI.newDoubleBuffer(n);
        DoubleBuffer in = MPI.newDoubleBuffer(n);
        Prequest send = world.sendInit(out, n, MPI.DOUBLE, next, 30);
        Prequest recv = world.recvInit(in, n, MPI.DOUBLE, prev, 30);
        for (int iter = 0; iter < 5; iter++) {
            for (int i = 0; i < n; i++) out.put(i, rank * 1000 + iter * 10 + i + 0.5);
            for (int i = 0; i < n; i++) in.put(i, -1);
            if (iter % 2 == 0) {
                Prequest.startAll(new Prequest[] {recv, send});
                Request.waitAll(new Request[] {recv, send});
            } else {
                recv.start();
                send.start();
                Status st = recv.waitStatus();
                Check.equal(prev, st.getSource(), "persistent recv source (iter " + iter + ")");
                Check.equal(30, st.getTag(), "persistent recv tag");
                Check.equal(n, st.getCount(MPI.DOUBLE), "persistent recv count");
                send.waitFor();
            }
            Check.that(!send.isNull() && !recv.isNull(), "persistent requests stay allocated after completion");
            for (int i = 0; i < n; i++) {
                Check.equal(prev * 1000 + iter * 10 + i + 0.5, in.get(i), "persistent iter " + iter + " [" + i + "]");
            }
        }
        send.free();
        recv.free();
        Check.that(send.isNull(), "freed persistent send is null");
        Check.that(recv.isNull(), "freed persistent recv is null");
        world.barrier();
    }

    static void freeSendRequest() throws MPIException {
        IntBuffer out = MPI.newIntBuffer(5);
        for (int i = 0; i < 5; i++) out.put(i, value(rank, next, i, 40));
        Request s = world.iSend(out, 5, MPI.INT, next, 40);
        s.free();
        Check.that(s.isNull(), "freed send request is null");
        int[] in = new int[5];
        Status st = world.recv(in, 5, MPI.INT, prev, 40);
        Check.equal(prev, st.getSource(), "recv of a message whose send request was freed: source");
        for (int i = 0; i < 5; i++) Check.equal(value(prev, rank, i, 40), in[i], "freed-send data [" + i + "]");
        world.barrier();
    }

    static void sendToSelf() throws MPIException {
        IntBuffer out = MPI.newIntBuffer(3);
        for (int i = 0; i < 3; i++) out.put(i, rank * 7 + i);
        Request s = world.iSend(out, 3, MPI.INT, rank, 50);
        int[] in = new int[3];
        Status st = world.recv(in, 3, MPI.INT, rank, 50);
        s.waitFor();
        Check.equal(rank, st.getSource(), "self message source");
        Check.array(new int[] {rank * 7, rank * 7 + 1, rank * 7 + 2}, in, "self message data");
        // iRecv from self before the send, then wait both
        IntBuffer in2 = MPI.newIntBuffer(3);
        Request r = world.iRecv(in2, 3, MPI.INT, MPI.ANY_SOURCE, 51);
        Request s2 = world.iSend(out, 3, MPI.INT, rank, 51);
        Request.waitAll(new Request[] {s2, r});
        for (int i = 0; i < 3; i++) Check.equal(rank * 7 + i, in2.get(i), "self iRecv data [" + i + "]");
    }
}
