package org.fthp.it.programs;

import java.nio.IntBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;

/**
 * Buffered mode as in Open MPI's binding: with a buffer attached,
 * partners rank^1 that each bSend a large message to the other and only then
 * receive do not deadlock; the program may reuse its send buffer at once;
 * the attached buffer's size is honoured (MPI.BSEND_OVERHEAD per message,
 * MPI_ERR_BUFFER when a large message does not fit; small ones go eagerly
 * and need no room, as in Open MPI); detachBuffer waits for the messages and
 * returns the attached array. Needs an even number of ranks.
 * Checks its own results; prints "CompatBsend OK np=n".
 */
public final class CompatBsend {

    /** Ints per large message: far above any eager limit, so its send waits for the receiver. */
    static final int N = 256 * 1024;

    static Intracomm world;
    static int rank, partner;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Check.runAll(MPI.COMM_WORLD, "CompatBsend", CompatBsend::checks);
        MPI.Finalize();
    }

    /** Every check of this program (CompatDataPath runs them too, to save a job). */
    static void checks() throws MPIException {
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        partner = rank ^ 1;
        Check.that(world.getSize() % 2 == 0, "needs an even number of ranks");
        exchangeWithoutDeadlock();
        sizeIsHonoured();
        detachRules();
    }

    static int value(int from, int round, int i) {
        return from * 1_000_003 + round * 7919 + i;
    }

    static void checkMessage(int[] got, int from, int round, String what) {
        for (int i = 0; i < got.length; i += 997) {
            Check.equal(value(from, round, i), got[i], what + " [" + i + "]");
        }
        Check.equal(value(from, round, got.length - 1), got[got.length - 1], what + " [last]");
    }

    /** Both partners bSend first, several rounds, from arrays and direct buffers, changed right after the call. */
    static void exchangeWithoutDeadlock() throws MPIException {
        // room for three: the previous round's message may not look sent yet when the next one starts
        byte[] attached = new byte[3 * (N * 4 + MPI.BSEND_OVERHEAD)];
        MPI.attachBuffer(attached);
        int[] out = new int[N];
        int[] in = new int[N];
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < N; i++) out[i] = value(rank, round, i);
            world.bSend(out, N, MPI.INT, partner, round);
            java.util.Arrays.fill(out, -1);   // the message was copied: changing the array now is allowed
            world.recv(in, N, MPI.INT, partner, round);
            checkMessage(in, partner, round, "bSend round " + round);
        }

        // a direct buffer (large sends from one are otherwise sent in place) and ibSend's request
        IntBuffer direct = MPI.newIntBuffer(N);
        for (int i = 0; i < N; i++) direct.put(i, value(rank, 10, i));
        Request r = world.ibSend(direct, N, MPI.INT, partner, 10);
        r.waitFor();   // done locally: the partner has not received yet
        for (int i = 0; i < N; i++) direct.put(i, -2);
        world.recv(in, N, MPI.INT, partner, 10);
        checkMessage(in, partner, 10, "ibSend from a direct buffer");

        // a persistent buffered send, started twice
        IntBuffer pout = MPI.newIntBuffer(N);
        Prequest p = world.bSendInit(pout, N, MPI.INT, partner, 11);
        for (int round = 11; round < 13; round++) {
            for (int i = 0; i < N; i++) pout.put(i, value(rank, round, i));
            p.start();
            p.waitFor();
            world.recv(in, N, MPI.INT, partner, 11);
            checkMessage(in, partner, round, "bSendInit round " + round);
        }
        p.free();
        Check.that(MPI.detachBuffer() == attached, "detachBuffer returns the attached array");
    }

    /**
     * Room for exactly two large messages: both fit (the overhead counted once each), a third does not
     * while the partner has not received the first two, and a message larger than the whole buffer never does.
     */
    static void sizeIsHonoured() throws MPIException {
        Intracomm c = (Intracomm) world.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        byte[] attached = new byte[2 * (N * 4 + MPI.BSEND_OVERHEAD)];
        MPI.attachBuffer(attached);
        int[] out = new int[N];
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < N; i++) out[i] = value(rank, 20 + k, i);
            c.bSend(out, N, MPI.INT, partner, 20 + k);
        }
        Check.bufferError(() -> c.bSend(new int[N], N, MPI.INT, partner, 22), "a third message while two are held");
        Check.bufferError(() -> c.bSend(new int[2 * N + 1], 2 * N + 1, MPI.INT, partner, 23),
                "a message larger than the buffer");
        // a small message goes eagerly and needs no room, as in Open MPI
        c.bSend(new int[] {rank}, 1, MPI.INT, partner, 24);
        c.barrier();   // nobody receives the held messages before everybody tried the third
        int[] one = new int[1];
        c.recv(one, 1, MPI.INT, partner, 24);
        Check.equal(partner, one[0], "small message past a full buffer");
        int[] in = new int[N];
        for (int k = 0; k < 2; k++) {
            c.recv(in, N, MPI.INT, partner, 20 + k);
            checkMessage(in, partner, 20 + k, "held message " + k);
        }
        // the partner received ours too once it passes this barrier; detach waits for the sends to finish
        c.barrier();
        Check.that(MPI.detachBuffer() == attached, "detachBuffer after the held messages left");
        c.free();
    }

    static void detachRules() throws MPIException {
        Intracomm c = (Intracomm) world.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        Check.bufferError(() -> c.bSend(new int[N], N, MPI.INT, partner, 30), "large bSend with no buffer attached");
        // a send to PROC_NULL, an empty message and a small one need no buffer (small ones go eagerly)
        c.bSend(new int[N], N, MPI.INT, MPI.PROC_NULL, 30);
        c.bSend(new int[0], 0, MPI.INT, partner, 31);
        c.recv(new int[0], 0, MPI.INT, partner, 31);
        c.bSend(new int[] {rank, 5}, 2, MPI.INT, partner, 32);
        int[] two = new int[2];
        c.recv(two, 2, MPI.INT, partner, 32);
        Check.array(new int[] {partner, 5}, two, "small bSend with no buffer attached");

        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);   // attach/detach report through COMM_WORLD
        Check.bufferError(MPI::detachBuffer, "detach with nothing attached");
        byte[] small = new byte[64];
        MPI.attachBuffer(small);
        Check.bufferError(() -> MPI.attachBuffer(new byte[64]), "a second attach");
        Check.that(MPI.detachBuffer() == small, "detach returns the small buffer");
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
        c.free();
    }
}
