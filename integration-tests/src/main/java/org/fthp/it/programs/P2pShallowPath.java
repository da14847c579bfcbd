package org.fthp.it.programs;

import java.nio.ByteBuffer;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

import org.fthp.replication.runtime.Engine;

/**
 * Which of a program's blocking sends and receives the engine's shallow path takes (ops.ShallowTransfer), counted
 * by the engine (not a program's business: this test program reads it). Ranks r and r ^ 1 exchange, each part's
 * count printed per rank as "P2pShallowPath rank R <part> <calls>":
 * <ul>
 * <li>{@code arrays}: 10 round trips of a {@code byte[]} and of a {@code double[]} (40 calls on each rank), the
 * answers checked;</li>
 * <li>{@code others}: what the general path must take: a direct buffer, a {@code boolean[]}, a strided datatype, a
 * payload past the eager limit, PROC_NULL (8 calls on each rank);</li>
 * <li>{@code errors}: bad arguments the facade refuses (rank, tag, buffer too short, datatype null) and a truncated
 * receive, each an MPIException of its class, the pair going on afterwards.</li>
 * </ul>
 * Needs an even number of ranks; prints "P2pShallowPath OK np=N".
 */
public final class P2pShallowPath {

    /** Past the eager limit (4000-byte eager messages, 24-byte header). */
    static final int LARGE = 8000;

    private P2pShallowPath() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        Check.runAll(w, "P2pShallowPath", () -> {
            int rank = w.getRank();
            int peer = rank ^ 1;
            Check.that(peer < w.getSize(), "an even number of ranks");
            boolean first = rank < peer;
            long start = shallowCalls();
            arrays(w, rank, peer, first);
            long arrays = shallowCalls() - start;
            others(w, peer, first);
            long others = shallowCalls() - start - arrays;
            errors(w, rank, peer, first);
            System.out.println("P2pShallowPath rank " + rank + " arrays " + arrays);
            System.out.println("P2pShallowPath rank " + rank + " others " + others);
            System.out.println("P2pShallowPath rank " + rank + " errors OK");
        });
        MPI.Finalize();
    }

    static long shallowCalls() {
        return Engine.get().pointToPoint().shallowCalls();
    }

    static void arrays(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        for (int i = 0; i < 10; i++) {
            byte[] out = {(byte) rank, (byte) i, 7};
            byte[] in = new byte[5];
            double[] dout = {rank + 0.5, i * 0.25};
            double[] din = new double[2];
            if (first) {
                w.send(out, 3, MPI.BYTE, peer, i);
                Status s = w.recv(in, 5, MPI.BYTE, peer, i);
                Check.equal(3, s.getCount(MPI.BYTE), "byte[]: count");
                w.send(dout, 2, MPI.DOUBLE, peer, 100 + i);
                Status d = w.recv(din, 2, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(peer, d.getSource(), "double[]: source");
                Check.equal(100 + i, d.getTag(), "double[]: tag");
            } else {
                Status s = w.recv(in, 5, MPI.BYTE, peer, i);
                Check.equal(i, s.getTag(), "byte[]: tag");
                w.send(out, 3, MPI.BYTE, peer, i);
                w.recv(din, 2, MPI.DOUBLE, peer, 100 + i);
                w.send(dout, 2, MPI.DOUBLE, peer, 100 + i);
            }
            Check.equal(peer, in[0], "byte[]: data");
            Check.equal(i, in[1], "byte[]: data");
            Check.equal(7, in[2], "byte[]: data");
            Check.equal(0, in[3], "byte[]: the rest untouched");
            Check.equal(peer + 0.5, din[0], "double[]: data");
            Check.equal(i * 0.25, din[1], "double[]: data");
        }
    }

    /** Four sends and four receives on each rank that the general path takes, plus two to PROC_NULL. */
    static void others(Intracomm w, int peer, boolean first) throws MPIException {
        ByteBuffer direct = ByteBuffer.allocateDirect(16);
        boolean[] flags = new boolean[4];
        int[] strided = new int[8];
        Datatype everyOther = Datatype.createVector(2, 1, 2, MPI.INT);
        everyOther.commit();
        byte[] large = new byte[LARGE];
        for (int part = 0; part < 2; part++) {
            if ((part == 0) == first) {
                direct.put(0, (byte) 42);
                flags[2] = true;
                strided[0] = 11;
                strided[2] = 12;
                large[LARGE - 1] = 9;
                w.send(direct, 16, MPI.BYTE, peer, 1);
                w.send(flags, 4, MPI.BOOLEAN, peer, 2);
                w.send(strided, 2, everyOther, peer, 3);
                w.send(large, LARGE, MPI.BYTE, peer, 4);
            } else {
                w.recv(direct, 16, MPI.BYTE, peer, 1);
                w.recv(flags, 4, MPI.BOOLEAN, peer, 2);
                w.recv(strided, 2, everyOther, peer, 3);
                w.recv(large, LARGE, MPI.BYTE, peer, 4);
                Check.equal(42, direct.get(0), "direct buffer: data");
                Check.that(flags[2] && !flags[1], "boolean[]: data");
                Check.equal(11, strided[0], "strided: data");
                Check.equal(12, strided[2], "strided: data");
                Check.equal(0, strided[1], "strided: the hole untouched");
                Check.equal(9, large[LARGE - 1], "large: data");
            }
        }
        w.send(new byte[1], 1, MPI.BYTE, MPI.PROC_NULL, 5);
        Status none = w.recv(new byte[1], 1, MPI.BYTE, MPI.PROC_NULL, 5);
        Check.equal(MPI.PROC_NULL, none.getSource(), "PROC_NULL: source");
        everyOther.free();
    }

    static void errors(Intracomm w, int rank, int peer, boolean first) throws MPIException {
        byte[] b = new byte[4];
        refused(() -> w.send(b, 4, MPI.BYTE, w.getSize(), 0), MPI.ERR_RANK, "send to a rank past the size");
        refused(() -> w.recv(b, 4, MPI.BYTE, -7, 0), MPI.ERR_RANK, "receive from a negative rank");
        refused(() -> w.send(b, 4, MPI.BYTE, peer, -3), MPI.ERR_TAG, "send with a negative tag");
        refused(() -> w.send(b, 5, MPI.BYTE, peer, 0), MPI.ERR_BUFFER, "send of more bytes than the array");
        refused(() -> w.recv(new double[1], 2, MPI.DOUBLE, peer, 0), MPI.ERR_BUFFER,
                "receive of more items than the array");
        refused(() -> w.send(b, 4, null, peer, 0), MPI.ERR_TYPE, "send of a null datatype");
        refused(() -> w.send(b, -1, MPI.BYTE, peer, 0), MPI.ERR_COUNT, "send of a negative count");
        if (first) {
            w.send(new byte[] {1, 2, 3, 4}, 4, MPI.BYTE, peer, 9);
        } else {
            refused(() -> w.recv(b, 2, MPI.BYTE, peer, 9), MPI.ERR_TRUNCATE, "a receive shorter than the message");
        }
        // the pair goes on after the errors
        byte[] in = new byte[1];
        if (first) {
            w.send(new byte[] {(byte) rank}, 1, MPI.BYTE, peer, 10);
            w.recv(in, 1, MPI.BYTE, peer, 10);
        } else {
            w.recv(in, 1, MPI.BYTE, peer, 10);
            w.send(new byte[] {(byte) rank}, 1, MPI.BYTE, peer, 10);
        }
        Check.equal(peer, in[0], "after the errors: data");
    }

    static void refused(Check.Call call, int errorClass, String what) {
        try {
            call.run();
        } catch (MPIException e) {
            Check.equal(errorClass, e.getErrorClass(), what + ": error class (" + e.getMessage() + ")");
            return;
        }
        throw new AssertionError(what + ": no MPIException");
    }
}
