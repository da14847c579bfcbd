package org.fthp.apps.cloverleaf;

import java.nio.DoubleBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Halo update of a set of fields (the reference's update_halo): exchange with neighbouring chunks,
 * then reflective walls on the mesh edge.
 *
 * <p>As in the reference's clover_exchange, all requested fields travel in one message per face;
 * left and right are exchanged and unpacked before bottom and top, and the bottom/top strips
 * include the side halos just received, which is how the corner halos get the diagonal
 * neighbour's values. Buffers are allocated once, for all fields at the largest depth.
 */
final class HaloExchange {

    private static final int TAG_LEFT = 1;   // message travelling leftwards
    private static final int TAG_RIGHT = 2;  // message travelling rightwards
    private static final int TAG_DOWN = 3;
    private static final int TAG_UP = 4;

    private final Chunk c;
    private final int[] neighbours;
    private final Intracomm comm;
    private final DoubleBuffer[] send = new DoubleBuffer[4];
    private final DoubleBuffer[] recv = new DoubleBuffer[4];
    private final double[] scratch;
    private final Request[] requests2 = new Request[2];
    private final Request[] requests4 = new Request[4];
    /** Seconds spent in exchanges, for the profile. */
    double seconds;

    HaloExchange(Chunk c, int[] neighbours, Intracomm comm) {
        this.c = c;
        this.neighbours = neighbours.clone();
        this.comm = comm;
        int depth = Chunk.HALO;
        int sideLen = Field.ALL.length * depth * (c.yMax + 2 * depth + 1);
        int endLen = Field.ALL.length * depth * (c.xMax + 2 * depth + 1);
        for (int face = 0; face < 4; face++) {
            int len = face <= Decomposition.RIGHT ? sideLen : endLen;
            if (neighbours[face] != Decomposition.EXTERNAL) {
                send[face] = MPI.newDoubleBuffer(len);
                recv[face] = MPI.newDoubleBuffer(len);
            }
        }
        scratch = new double[Math.max(sideLen, endLen)];
    }

    void update(int fields, int depth) throws MPIException {
        long t0 = System.nanoTime();
        exchange(fields, depth);
        Boundary.reflect(c, neighbours, fields, depth);
        seconds += (System.nanoTime() - t0) * 1e-9;
    }

    private void exchange(int fields, int depth) throws MPIException {
        boolean hasLeft = neighbours[Decomposition.LEFT] != Decomposition.EXTERNAL;
        boolean hasRight = neighbours[Decomposition.RIGHT] != Decomposition.EXTERNAL;
        if (hasLeft || hasRight) {
            int n = 0;
            Request[] reqs = hasLeft && hasRight ? requests4 : requests2;
            if (hasLeft) {
                int len = packSide(fields, depth, send[Decomposition.LEFT], true);
                int peer = neighbours[Decomposition.LEFT];
                reqs[n++] = comm.iRecv(recv[Decomposition.LEFT], len, MPI.DOUBLE, peer, TAG_RIGHT);
                reqs[n++] = comm.iSend(send[Decomposition.LEFT], len, MPI.DOUBLE, peer, TAG_LEFT);
            }
            if (hasRight) {
                int len = packSide(fields, depth, send[Decomposition.RIGHT], false);
                int peer = neighbours[Decomposition.RIGHT];
                reqs[n++] = comm.iRecv(recv[Decomposition.RIGHT], len, MPI.DOUBLE, peer, TAG_LEFT);
                reqs[n++] = comm.iSend(send[Decomposition.RIGHT], len, MPI.DOUBLE, peer, TAG_RIGHT);
            }
            Request.waitAll(reqs);
            if (hasLeft) {
                unpackSide(fields, depth, recv[Decomposition.LEFT], true);
            }
            if (hasRight) {
                unpackSide(fields, depth, recv[Decomposition.RIGHT], false);
            }
        }
        boolean hasBottom = neighbours[Decomposition.BOTTOM] != Decomposition.EXTERNAL;
        boolean hasTop = neighbours[Decomposition.TOP] != Decomposition.EXTERNAL;
        if (hasBottom || hasTop) {
            int n = 0;
            Request[] reqs = hasBottom && hasTop ? requests4 : requests2;
            if (hasBottom) {
                int len = packEnd(fields, depth, send[Decomposition.BOTTOM], true);
                int peer = neighbours[Decomposition.BOTTOM];
                reqs[n++] = comm.iRecv(recv[Decomposition.BOTTOM], len, MPI.DOUBLE, peer, TAG_UP);
                reqs[n++] = comm.iSend(send[Decomposition.BOTTOM], len, MPI.DOUBLE, peer, TAG_DOWN);
            }
            if (hasTop) {
                int len = packEnd(fields, depth, send[Decomposition.TOP], false);
                int peer = neighbours[Decomposition.TOP];
                reqs[n++] = comm.iRecv(recv[Decomposition.TOP], len, MPI.DOUBLE, peer, TAG_DOWN);
                reqs[n++] = comm.iSend(send[Decomposition.TOP], len, MPI.DOUBLE, peer, TAG_UP);
            }
            Request.waitAll(reqs);
            if (hasBottom) {
                unpackEnd(fields, depth, recv[Decomposition.BOTTOM], true);
            }
            if (hasTop) {
                unpackEnd(fields, depth, recv[Decomposition.TOP], false);
            }
        }
    }

    /**
     * Packs the columns next to the left (or right) face, rows extended by {@code depth} into the
     * bottom and top halos. The left neighbour receives our columns 1+xInc.., the right one our
     * columns xMax, xMax-1, ...: shared vertex and face columns are not sent.
     */
    private int packSide(int fields, int depth, DoubleBuffer buf, boolean left) {
        int n = 0;
        for (Field f : Field.ALL) {
            if ((fields & f.bit) == 0) {
                continue;
            }
            double[] a = f.of(c);
            int xInc = f.type.xInc;
            for (int k = 1 - depth; k <= c.yMax + f.type.yInc + depth; k++) {
                int row = c.idx(0, k);
                for (int j = 1; j <= depth; j++) {
                    scratch[n++] = left ? a[row + xInc + j] : a[row + c.xMax + 1 - j];
                }
            }
        }
        buf.put(0, scratch, 0, n);
        return n;
    }

    private void unpackSide(int fields, int depth, DoubleBuffer buf, boolean left) {
        int total = 0;
        for (Field f : Field.ALL) {
            if ((fields & f.bit) != 0) {
                total += depth * (c.yMax + f.type.yInc + 2 * depth);
            }
        }
        buf.get(0, scratch, 0, total);
        int n = 0;
        for (Field f : Field.ALL) {
            if ((fields & f.bit) == 0) {
                continue;
            }
            double[] a = f.of(c);
            int xInc = f.type.xInc;
            for (int k = 1 - depth; k <= c.yMax + f.type.yInc + depth; k++) {
                int row = c.idx(0, k);
                for (int j = 1; j <= depth; j++) {
                    if (left) {
                        a[row + 1 - j] = scratch[n++];
                    } else {
                        a[row + c.xMax + xInc + j] = scratch[n++];
                    }
                }
            }
        }
    }

    /** As {@link #packSide} for the rows next to the bottom (or top) face, columns extended into the side halos. */
    private int packEnd(int fields, int depth, DoubleBuffer buf, boolean bottom) {
        int n = 0;
        for (Field f : Field.ALL) {
            if ((fields & f.bit) == 0) {
                continue;
            }
            double[] a = f.of(c);
            int yInc = f.type.yInc;
            int jHi = c.xMax + f.type.xInc + depth;
            for (int k = 1; k <= depth; k++) {
                int row = bottom ? c.idx(0, yInc + k) : c.idx(0, c.yMax + 1 - k);
                for (int j = 1 - depth; j <= jHi; j++) {
                    scratch[n++] = a[row + j];
                }
            }
        }
        buf.put(0, scratch, 0, n);
        return n;
    }

    private void unpackEnd(int fields, int depth, DoubleBuffer buf, boolean bottom) {
        int total = 0;
        for (Field f : Field.ALL) {
            if ((fields & f.bit) != 0) {
                total += depth * (c.xMax + f.type.xInc + 2 * depth);
            }
        }
        buf.get(0, scratch, 0, total);
        int n = 0;
        for (Field f : Field.ALL) {
            if ((fields & f.bit) == 0) {
                continue;
            }
            double[] a = f.of(c);
            int yInc = f.type.yInc;
            int jHi = c.xMax + f.type.xInc + depth;
            for (int k = 1; k <= depth; k++) {
                int row = bottom ? c.idx(0, 1 - k) : c.idx(0, c.yMax + yInc + k);
                for (int j = 1 - depth; j <= jHi; j++) {
                    a[row + j] = scratch[n++];
                }
            }
        }
    }
}
