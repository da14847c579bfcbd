package org.fthp.apps.hpcg;

import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Which values this process exchanges with which neighbours, and the exchange itself.
 *
 * <p>Setup follows SetupHalo_ref: every column owned by another rank is a value to receive from
 * it, and by symmetry of the stencil the row that needs it is a value that rank wants from us.
 * Neighbours are taken in increasing rank, and each one's values in increasing global index: the
 * received values are appended after the local rows in that order.
 *
 * <p>The exchange follows ExchangeHalo: post all receives, pack the send buffer, send to each
 * neighbour, wait. Payloads travel in direct buffers allocated once (the MPI layer never points
 * into a Java array that the collector could move); sends are nonblocking too, so no send can
 * wait on a neighbour that is itself still sending.
 */
final class Halo {
    static final int TAG = 99;

    final int[] neighbors;
    final int[] receiveLength;
    final int[] sendLength;
    final int[] elementsToSend;
    final int totalToBeSent;
    final int numberOfExternalValues;

    private final int nrow;
    private final Intracomm comm;
    private final DoubleBuffer sendBuffer;
    private final DoubleBuffer receiveBuffer;
    private final DoubleBuffer[] sendSlices;
    private final DoubleBuffer[] receiveSlices;
    private final Request[] requests;

    private Halo(int nrow, Intracomm comm, int[] neighbors, int[] receiveLength, int[] sendLength,
                 int[] elementsToSend, int externals) {
        this.nrow = nrow;
        this.comm = comm;
        this.neighbors = neighbors;
        this.receiveLength = receiveLength;
        this.sendLength = sendLength;
        this.elementsToSend = elementsToSend;
        this.totalToBeSent = elementsToSend.length;
        this.numberOfExternalValues = externals;
        int n = neighbors.length;
        this.requests = new Request[2 * n];
        this.sendSlices = new DoubleBuffer[n];
        this.receiveSlices = new DoubleBuffer[n];
        if (n > 0) {
            sendBuffer = MPI.newDoubleBuffer(Math.max(1, totalToBeSent));
            receiveBuffer = MPI.newDoubleBuffer(Math.max(1, externals));
            int s = 0;
            int r = 0;
            for (int i = 0; i < n; i++) {
                sendSlices[i] = MPI.slice(sendBuffer, s);
                receiveSlices[i] = MPI.slice(receiveBuffer, r);
                s += sendLength[i];
                r += receiveLength[i];
            }
        } else {
            sendBuffer = null;
            receiveBuffer = null;
        }
    }

    /**
     * Builds the halo of {@code a}, turns its global column ids into local ones, and sets its
     * column count (local rows + external values).
     */
    static Halo setup(SparseMatrix a, Intracomm comm) {
        Geometry g = a.geom;
        int me = g.rank;
        long[] gcols = a.globalCols;
        // neighbour rank -> global ids to receive / local rows' global ids to send (with repeats)
        TreeMap<Integer, LongList> recv = new TreeMap<>();
        TreeMap<Integer, LongList> send = new TreeMap<>();
        for (int i = 0; i < a.nrow; i++) {
            long row = a.localToGlobal[i];
            int base = i * SparseMatrix.STENCIL;
            for (int j = 0; j < a.nnzInRow[i]; j++) {
                long col = gcols[base + j];
                int owner = g.rankOfRow(col);
                if (owner != me) {
                    recv.computeIfAbsent(owner, k -> new LongList()).add(col);
                    send.computeIfAbsent(owner, k -> new LongList()).add(row);
                }
            }
        }
        int n = recv.size();
        if (send.size() != n || !send.keySet().equals(recv.keySet())) {
            throw new IllegalStateException("halo is not symmetric: send to " + send.keySet() + ", receive from "
                    + recv.keySet());
        }
        int[] neighbors = new int[n];
        int[] recvLen = new int[n];
        int[] sendLen = new int[n];
        Map<Long, Integer> externalToLocal = new HashMap<>();
        LongList toSend = new LongList();
        int k = 0;
        int external = a.nrow;
        for (Map.Entry<Integer, LongList> e : recv.entrySet()) {
            int nb = e.getKey();
            neighbors[k] = nb;
            long[] r = e.getValue().sortedUnique();
            long[] s = send.get(nb).sortedUnique();
            recvLen[k] = r.length;
            sendLen[k] = s.length;
            for (long col : r) {
                externalToLocal.put(col, external++);
            }
            for (long row : s) {
                toSend.add(g.localRow(row));
            }
            k++;
        }
        int[] elements = new int[toSend.size];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = (int) toSend.data[i];
        }
        // local column ids: own rows by position, external values by the numbering above
        for (int i = 0; i < a.nrow; i++) {
            int base = i * SparseMatrix.STENCIL;
            for (int j = 0; j < a.nnzInRow[i]; j++) {
                long col = gcols[base + j];
                a.cols[base + j] = g.rankOfRow(col) == me ? g.localRow(col) : externalToLocal.get(col);
            }
        }
        a.globalCols = null;
        int externals = external - a.nrow;
        a.ncol = a.nrow + externals;
        if (n > 0 && comm == null) {
            throw new IllegalStateException("a serial run cannot have halo neighbours");
        }
        return new Halo(a.nrow, comm, neighbors, recvLen, sendLen, elements, externals);
    }

    /** Fills x[nrow .. ncol) with the neighbours' values of their boundary rows. */
    void exchange(double[] x) {
        int n = neighbors.length;
        if (n == 0) {
            return;
        }
        try {
            for (int i = 0; i < n; i++) {
                requests[i] = comm.iRecv(receiveSlices[i], receiveLength[i], MPI.DOUBLE, neighbors[i], TAG);
            }
            DoubleBuffer sb = sendBuffer;
            int[] el = elementsToSend;
            for (int i = 0; i < totalToBeSent; i++) {
                sb.put(i, x[el[i]]);
            }
            for (int i = 0; i < n; i++) {
                requests[n + i] = comm.iSend(sendSlices[i], sendLength[i], MPI.DOUBLE, neighbors[i], TAG);
            }
            Request.waitAll(requests);
        } catch (MPIException e) {
            throw new IllegalStateException("halo exchange failed", e);
        }
        receiveBuffer.get(0, x, nrow, numberOfExternalValues);
        Arrays.fill(requests, null);
    }

    /** Growable list of longs, so setup does not box every boundary index. */
    static final class LongList {
        long[] data = new long[64];
        int size;

        void add(long v) {
            if (size == data.length) {
                data = Arrays.copyOf(data, size * 2);
            }
            data[size++] = v;
        }

        long[] sortedUnique() {
            long[] a = Arrays.copyOf(data, size);
            Arrays.sort(a);
            int m = 0;
            for (int i = 0; i < a.length; i++) {
                if (i == 0 || a[i] != a[i - 1]) {
                    a[m++] = a[i];
                }
            }
            return Arrays.copyOf(a, m);
        }
    }
}
