package org.fthp.it.programs;

import java.nio.IntBuffer;
import java.util.HashSet;
import java.util.Set;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * iProbe / probe (incl. ANY_SOURCE / ANY_TAG and receiving with the probed
 * source, tag and count), matched probes (Message.mProbe / imProbe with
 * mRecv / imRecv) and probes of PROC_NULL.
 * Prints "P2pProbe OK rank r" at the end on every rank.
 */
public final class P2pProbe {

    static int rank, size, next, prev;
    static Comm world;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        next = (rank + 1) % size;
        prev = (rank - 1 + size) % size;

        iProbeLoop();
        probeAnySourceAnyTag();
        matchedProbe();
        matchedImProbe();
        procNull();

        world.barrier();
        System.out.println("P2pProbe OK rank " + rank);
        MPI.Finalize();
    }

    static int[] payload(int from, int len, int salt) {
        int[] a = new int[len];
        for (int i = 0; i < len; i++) a[i] = from * 10_000 + salt * 100 + i;
        return a;
    }

    static Status spinIProbe(int source, int tag) throws MPIException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        Status st;
        while ((st = world.iProbe(source, tag)) == null) {
            Check.that(System.nanoTime() < deadline, "iProbe(" + source + ", " + tag + ") never found a message");
            Thread.onSpinWait();
        }
        return st;
    }

    static void iProbeLoop() throws MPIException {
        int len = 3 + rank;
        IntBuffer out = MPI.newIntBuffer(len);
        out.put(payload(rank, len, 1));
        Request s = world.iSend(out, len, MPI.INT, next, 30 + rank);
        world.barrier(); // the message has been sent (it may still be in flight)
        Status st = spinIProbe(prev, MPI.ANY_TAG);
        Check.equal(prev, st.getSource(), "iProbe source");
        Check.equal(30 + prev, st.getTag(), "iProbe tag");
        Check.equal(3 + prev, st.getCount(MPI.INT), "iProbe count");
        // probing again finds the same message: a probe does not receive
        Status again = spinIProbe(MPI.ANY_SOURCE, 30 + prev);
        Check.equal(prev, again.getSource(), "second iProbe source");
        Check.equal(3 + prev, again.getCount(MPI.INT), "second iProbe count");
        int[] in = new int[st.getCount(MPI.INT)];
        Status rs = world.recv(in, in.length, MPI.INT, st.getSource(), st.getTag());
        Check.equal(in.length, rs.getCount(MPI.INT), "recv after iProbe count");
        Check.array(payload(prev, 3 + prev, 1), in, "recv after iProbe data");
        s.waitFor();
        world.barrier();
    }

    static void probeAnySourceAnyTag() throws MPIException {
        if (rank == 0) {
            Set<Integer> seen = new HashSet<>();
            for (int k = 1; k < size; k++) {
                Status st = world.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                int src = st.getSource();
                int tag = st.getTag();
                Check.that(src >= 1 && src < size && seen.add(src), "probe ANY_SOURCE: new source in range, got " + src);
                Check.equal(50 + src, tag, "probe ANY_TAG: tag");
                int len = st.getCount(MPI.INT);
                Check.equal(2 * src + 1, len, "probe count");
                Check.equal(len, st.getElements(MPI.INT), "probe elements");
                int[] in = new int[len];
                Status rs = world.recv(in, len, MPI.INT, src, tag);
                Check.equal(src, rs.getSource(), "recv after probe: source");
                Check.equal(tag, rs.getTag(), "recv after probe: tag");
                Check.array(payload(src, len, 2), in, "recv after probe: data");
            }
            world.barrier();
            // a message with length 0 can be probed as well
            for (int k = 1; k < size; k++) {
                Status st = world.probe(k, 70);
                Check.equal(k, st.getSource(), "probe of an empty message: source");
                Check.equal(0, st.getCount(MPI.INT), "probe of an empty message: count");
                world.recv(new int[0], 0, MPI.INT, k, 70);
            }
        } else {
            world.send(payload(rank, 2 * rank + 1, 2), 2 * rank + 1, MPI.INT, 0, 50 + rank);
            world.barrier(); // rank 0's wildcard probes above must not see the next message
            world.send(new int[0], 0, MPI.INT, 0, 70);
        }
        world.barrier();
    }

    static void matchedProbe() throws MPIException {
        int len = 2 + rank;
        IntBuffer out = MPI.newIntBuffer(len);
        out.put(payload(rank, len, 3));
        Request s = world.iSend(out, len, MPI.INT, next, 60);
        Message m = new Message();
        Check.that(m.isNull(), "new Message() is MESSAGE_NULL");
        Status st = m.mProbe(MPI.ANY_SOURCE, 60, world);
        Check.that(!m.isNull(), "mProbe fills the message");
        Check.that(!m.isNoProc(), "mProbe of a real message is not NO_PROC");
        Check.equal(prev, st.getSource(), "mProbe source");
        Check.equal(60, st.getTag(), "mProbe tag");
        int n = st.getCount(MPI.INT);
        Check.equal(2 + prev, n, "mProbe count");
        int[] in = new int[n];
        Status rs = m.mRecv(in, n, MPI.INT);
        Check.equal(prev, rs.getSource(), "mRecv source");
        Check.equal(60, rs.getTag(), "mRecv tag");
        Check.equal(n, rs.getCount(MPI.INT), "mRecv count");
        Check.array(payload(prev, n, 3), in, "mRecv data");
        Check.that(m.isNull(), "message is MESSAGE_NULL after mRecv");
        s.waitFor();
        world.barrier();
    }

    static void matchedImProbe() throws MPIException {
        int len = 4;
        IntBuffer out = MPI.newIntBuffer(len);
        out.put(payload(rank, len, 4));
        Request s = world.iSend(out, len, MPI.INT, prev, 61); // reverse ring this time
        world.barrier();
        Message m = new Message();
        long deadline = System.nanoTime() + 60_000_000_000L;
        Status st;
        while ((st = m.imProbe(next, MPI.ANY_TAG, world)) == null) {
            Check.that(System.nanoTime() < deadline, "imProbe never found a message");
            Thread.onSpinWait();
        }
        Check.that(!m.isNull(), "imProbe fills the message");
        Check.equal(next, st.getSource(), "imProbe source");
        Check.equal(61, st.getTag(), "imProbe tag");
        Check.equal(len, st.getCount(MPI.INT), "imProbe count");
        IntBuffer in = MPI.newIntBuffer(len);
        Request r = m.imRecv(in, len, MPI.INT);
        Status rs = r.waitStatus();
        Check.equal(next, rs.getSource(), "imRecv source");
        Check.equal(61, rs.getTag(), "imRecv tag");
        int[] got = new int[len];
        in.get(0, got);
        Check.array(payload(next, len, 4), got, "imRecv data");
        s.waitFor();
        world.barrier();
    }

    static void procNull() throws MPIException {
        Status st = world.probe(MPI.PROC_NULL, 5);
        Check.equal(MPI.PROC_NULL, st.getSource(), "probe(PROC_NULL): source");
        Check.equal(MPI.ANY_TAG, st.getTag(), "probe(PROC_NULL): tag");
        Check.equal(0, st.getCount(MPI.INT), "probe(PROC_NULL): count");
        Status ist = world.iProbe(MPI.PROC_NULL, MPI.ANY_TAG);
        Check.that(ist != null, "iProbe(PROC_NULL) finds the empty message at once");
        Check.equal(MPI.PROC_NULL, ist.getSource(), "iProbe(PROC_NULL): source");
        Check.equal(0, ist.getCount(MPI.INT), "iProbe(PROC_NULL): count");

        Message m = new Message();
        Status ms = m.mProbe(MPI.PROC_NULL, 5, world);
        Check.that(m.isNoProc(), "mProbe(PROC_NULL) gives MESSAGE_NO_PROC");
        Check.equal(MPI.PROC_NULL, ms.getSource(), "mProbe(PROC_NULL): source");
        int[] buf = {-3};
        Status rs = m.mRecv(buf, 1, MPI.INT);
        Check.equal(MPI.PROC_NULL, rs.getSource(), "mRecv of NO_PROC: source");
        Check.equal(0, rs.getCount(MPI.INT), "mRecv of NO_PROC: count");
        Check.equal(-3, buf[0], "mRecv of NO_PROC leaves buffer");
    }
}
