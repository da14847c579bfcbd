package org.fthp.it.programs;

import java.nio.IntBuffer;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Small blocking sends and receives, which a job without replicas does inline (ops.InlineTransfer), and every
 * way they meet the general path: pairs of ranks (r, r ^ 1) exchange messages with wildcards, of no items, of a
 * strided datatype, from direct buffers and boolean arrays, at the eager limit and one byte past it; a receive
 * shorter than a small message and one shorter than a large message (both MPI_ERR_TRUNCATE, the pair goes on);
 * a burst of thousands of sends before the receiver starts (the native library cannot complete them all at
 * once, so some stay in flight after the call); a probe that takes a message before the receive; nonblocking,
 * synchronous and buffered sends to a blocking receive and a ready-mode send to a nonblocking one; send-receives,
 * one of them too short on one side; a message to itself. Needs an even number of ranks. Prints
 * "P2pSmallBlocking OK np=N".
 */
public final class P2pSmallBlocking {

    /** The largest payload sent with its header in one native message (4000-byte eager messages, 24-byte header). */
    static final int EAGER_PAYLOAD = 4000 - 24;

    static final int BURST = 5000;

    private P2pSmallBlocking() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);   // the truncations are expected
        Check.runAll(w, "P2pSmallBlocking", () -> {
            int rank = w.getRank();
            int peer = rank ^ 1;
            Check.that(peer < w.getSize(), "an even number of ranks");
            boolean first = rank < peer;
            wildcards(w, rank, peer, first);
            shapes(w, rank, peer, first);
            eagerLimit(w, rank, peer, first);
            truncation(w, rank, peer, first);
            burst(w, peer, first);
            probed(w, rank, peer, first);
            otherModes(w, rank, peer, first);
            sendRecvs(w, rank, peer, first);
            toItself(w, rank);
        });
        MPI.Finalize();
    }

    static int[] ints(int from, int salt, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = from * 1_000_000 + salt * 10_000 + i;
        return a;
    }

    static void wildcards(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        if (first) {
            w.send(ints(rank, 1, 10), 10, MPI.INT, peer, 5);
            int[] in = new int[12];
            Status st = w.recv(in, 12, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            Check.equal(peer, st.getSource(), "wildcard: source");
            Check.equal(6, st.getTag(), "wildcard: tag");
            Check.equal(7, st.getCount(MPI.INT), "wildcard: count");
            int[] expected = new int[12];
            System.arraycopy(ints(peer, 2, 7), 0, expected, 0, 7);
            Check.array(expected, in, "wildcard: data, the rest untouched");
        } else {
            int[] in = new int[10];
            Status st = w.recv(in, 10, MPI.INT, peer, MPI.ANY_TAG);
            Check.equal(5, st.getTag(), "any tag: tag");
            Check.array(ints(peer, 1, 10), in, "any tag: data");
            w.send(ints(rank, 2, 7), 7, MPI.INT, peer, 6);
        }
    }

    static void shapes(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        // no items: an empty message still matches, and says so
        int[] none = {-7};
        if (first) {
            w.send(none, 0, MPI.INT, peer, 20);
        } else {
            Status st = w.recv(none, 0, MPI.INT, peer, 20);
            Check.equal(0, st.getCount(MPI.INT), "empty message: count");
            Check.equal(-7, none[0], "empty message leaves the buffer");
        }
        // a strided datatype: 3 blocks of 2 ints, 4 apart
        Datatype strided = Datatype.createVector(3, 2, 4, MPI.INT);
        strided.commit();
        int[] in = new int[10];
        if (first) {
            w.send(ints(rank, 3, 10), 1, strided, peer, 21);
        } else {
            Status st = w.recv(in, 1, strided, peer, 21);
            Check.equal(1, st.getCount(strided), "strided: count");
            int[] sent = ints(peer, 3, 10);
            int[] expected = {sent[0], sent[1], 0, 0, sent[4], sent[5], 0, 0, sent[8], sent[9]};
            Check.array(expected, in, "strided: data");
        }
        strided.free();
        // a direct buffer each way
        IntBuffer direct = MPI.newIntBuffer(16);
        if (first) {
            direct.put(0, ints(rank, 4, 16));
            w.send(direct, 16, MPI.INT, peer, 22);
            w.recv(direct, 16, MPI.INT, peer, 23);
            for (int i = 0; i < 16; i++) Check.equal(ints(peer, 5, 16)[i], direct.get(i), "direct buffer: item " + i);
        } else {
            w.recv(direct, 16, MPI.INT, peer, 22);
            for (int i = 0; i < 16; i++) Check.equal(ints(peer, 4, 16)[i], direct.get(i), "direct buffer: item " + i);
            direct.put(0, ints(rank, 5, 16));
            w.send(direct, 16, MPI.INT, peer, 23);
        }
        // booleans, and doubles
        boolean[] flags = {true, false, true, true, false};
        double[] values = {1.5, -2.25, Math.PI};
        if (first) {
            w.send(flags, 5, MPI.BOOLEAN, peer, 24);
            w.send(values, 3, MPI.DOUBLE, peer, 25);
        } else {
            boolean[] f = new boolean[5];
            double[] v = new double[3];
            w.recv(f, 5, MPI.BOOLEAN, peer, 24);
            w.recv(v, 3, MPI.DOUBLE, peer, 25);
            for (int i = 0; i < 5; i++) Check.equal(flags[i], f[i], "booleans: item " + i);
            Check.array(values, v, "doubles");
        }
    }

    /** The largest payload that travels with its header, and the smallest that travels apart. */
    static void eagerLimit(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        for (int bytes : new int[] {EAGER_PAYLOAD, EAGER_PAYLOAD + 1}) {
            byte[] b = new byte[bytes];
            if (first) {
                for (int i = 0; i < bytes; i++) b[i] = (byte) (i * 7 + rank);
                w.send(b, bytes, MPI.BYTE, peer, 30);
            } else {
                Status st = w.recv(b, bytes, MPI.BYTE, peer, 30);
                Check.equal(bytes, st.getCount(MPI.BYTE), bytes + " bytes: count");
                for (int i = 0; i < bytes; i++) {
                    if (b[i] != (byte) (i * 7 + peer)) {
                        Check.that(false, bytes + " bytes: byte " + i);
                    }
                }
            }
        }
    }

    /** A receive shorter than the message is an error of its own; the next message arrives intact. */
    static void truncation(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        int large = 5000;   // doubles: the payload travels apart from its header
        if (first) {
            w.send(ints(rank, 6, 100), 100, MPI.INT, peer, 40);
            w.send(ints(rank, 7, 3), 3, MPI.INT, peer, 41);
            w.send(new double[large], large, MPI.DOUBLE, peer, 42);
            w.send(ints(rank, 8, 3), 3, MPI.INT, peer, 43);
        } else {
            truncated(() -> w.recv(new int[50], 50, MPI.INT, peer, 40), "a small message into a shorter receive");
            int[] in = new int[3];
            w.recv(in, 3, MPI.INT, peer, 41);
            Check.array(ints(peer, 7, 3), in, "the message after a truncated small one");
            truncated(() -> w.recv(new double[10], 10, MPI.DOUBLE, peer, 42), "a large message into a small receive");
            w.recv(in, 3, MPI.INT, peer, 43);
            Check.array(ints(peer, 8, 3), in, "the message after a truncated large one");
        }
    }

    static void truncated(Check.Call call, String what) {
        try {
            call.run();
        } catch (MPIException e) {
            Check.equal(MPI.ERR_TRUNCATE, e.getErrorClass(), what + ": error class (" + e.getMessage() + ")");
            return;
        }
        throw new AssertionError(what + ": no MPIException");
    }

    /** Thousands of sends before the receiver takes any: they arrive complete and in order. */
    static void burst(Intracomm w, int peer, boolean first) throws MPIException {
        int[] m = new int[16];
        if (first) {
            for (int k = 0; k < BURST; k++) {
                m[0] = k;
                m[15] = -k;
                w.send(m, 16, MPI.INT, peer, 50);
            }
        } else {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (int k = 0; k < BURST; k++) {
                w.recv(m, 16, MPI.INT, peer, 50);
                if (m[0] != k || m[15] != -k) {
                    Check.that(false, "burst: message " + k + " arrived as " + m[0] + "/" + m[15]);
                }
            }
        }
        w.barrier();
    }

    /** A message a probe has seen (and may have taken out of the native library) is the one the receive gets. */
    static void probed(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        if (first) {
            w.send(ints(rank, 9, 4), 4, MPI.INT, peer, 60);
            w.send(ints(rank, 10, 4), 4, MPI.INT, peer, 61);
        } else {
            Status seen = w.probe(peer, 61);
            Check.equal(4, seen.getCount(MPI.INT), "probe: count");
            int[] in = new int[4];
            w.recv(in, 4, MPI.INT, peer, 61);
            Check.array(ints(peer, 10, 4), in, "the probed message");
            w.recv(in, 4, MPI.INT, peer, 60);
            Check.array(ints(peer, 9, 4), in, "the message sent before the probed one");
        }
    }

    /**
     * Blocking receives of nonblocking, synchronous and buffered sends, a nonblocking receive of a ready-mode
     * send, and a blocking exchange the other way.
     */
    static void otherModes(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        int[] in = new int[5];
        if (first) {
            IntBuffer out = MPI.newIntBuffer(5);
            out.put(0, ints(rank, 11, 5));
            Request r = w.iSend(out, 5, MPI.INT, peer, 70);
            w.sSend(ints(rank, 12, 5), 5, MPI.INT, peer, 71);
            r.waitFor();
            MPI.attachBuffer(new byte[1024]);
            w.bSend(ints(rank, 13, 5), 5, MPI.INT, peer, 72);
            MPI.detachBuffer();
            w.rSend(ints(rank, 14, 5), 5, MPI.INT, peer, 73);
            w.recv(in, 5, MPI.INT, peer, 74);
            Check.array(ints(peer, 15, 5), in, "a blocking receive of a blocking send, the other way");
        } else {
            // posted before the synchronous send's match, so before the ready send starts, as MPI requires
            IntBuffer ready = MPI.newIntBuffer(5);
            Request r = w.iRecv(ready, 5, MPI.INT, peer, 73);
            w.recv(in, 5, MPI.INT, peer, 70);
            Check.array(ints(peer, 11, 5), in, "a blocking receive of a nonblocking send");
            w.recv(in, 5, MPI.INT, peer, 71);
            Check.array(ints(peer, 12, 5), in, "a blocking receive of a synchronous send");
            w.recv(in, 5, MPI.INT, peer, 72);
            Check.array(ints(peer, 13, 5), in, "a blocking receive of a buffered send");
            r.waitFor();
            for (int i = 0; i < 5; i++) {
                Check.equal(ints(peer, 14, 5)[i], ready.get(i), "a nonblocking receive of a ready send, item " + i);
            }
            w.send(ints(rank, 15, 5), 5, MPI.INT, peer, 74);
        }
    }

    /**
     * Send-receives with the peer, one whose receive is too short (an error on that side only), a replace, and one
     * to a rank that does not exist.
     */
    static void sendRecvs(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        int[] in = new int[8];
        Status st = w.sendRecv(ints(rank, 17, 8), 8, MPI.INT, peer, 90, in, 8, MPI.INT, MPI.ANY_SOURCE, 90);
        Check.equal(peer, st.getSource(), "sendRecv: source");
        Check.array(ints(peer, 17, 8), in, "sendRecv: data");
        int sent = first ? 100 : 3;
        int room = first ? 3 : 50;
        int[] out = ints(rank, 18, sent);
        int[] into = new int[room];
        if (first) {
            st = w.sendRecv(out, sent, MPI.INT, peer, 91, into, room, MPI.INT, peer, 91);
            Check.array(ints(peer, 18, 3), into, "sendRecv: the receive that fits");
        } else {
            truncated(() -> w.sendRecv(out, sent, MPI.INT, peer, 91, into, room, MPI.INT, peer, 91),
                    "sendRecv: a receive shorter than the message");
        }
        int[] both = ints(rank, 19, 6);
        st = w.sendRecvReplace(both, 6, MPI.INT, peer, 92, peer, 92);
        Check.equal(6, st.getCount(MPI.INT), "sendRecvReplace: count");
        Check.array(ints(peer, 19, 6), both, "sendRecvReplace: data");
        // a bad destination fails the call before its receive is posted: the next message on that tag is not
        // taken by a forgotten receive
        int nowhere = w.getSize();
        try {
            w.sendRecv(ints(rank, 20, 2), 2, MPI.INT, nowhere, 93, new int[2], 2, MPI.INT, peer, 93);
            Check.that(false, "sendRecv to rank " + nowhere + " must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_RANK, e.getErrorClass(), "sendRecv to a bad rank: error class");
        }
        if (first) {
            w.send(ints(rank, 21, 2), 2, MPI.INT, peer, 93);
        } else {
            int[] two = new int[2];
            w.recv(two, 2, MPI.INT, peer, 93);
            Check.array(ints(peer, 21, 2), two, "the message after a failed sendRecv");
        }
    }

    static void toItself(Intracomm w, int rank) throws MPIException {
        int[] in = new int[6];
        w.send(ints(rank, 16, 6), 6, MPI.INT, rank, 80);
        Status st = w.recv(in, 6, MPI.INT, rank, 80);
        Check.equal(rank, st.getSource(), "to itself: source");
        Check.array(ints(rank, 16, 6), in, "to itself: data");
    }
}
