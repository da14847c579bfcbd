package org.fthp.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

import com.sun.management.ThreadMXBean;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import org.fthp.empi.Empi;

/**
 * What one small message costs the CPU, with no peer to wait for: one process sends a {@code byte[]} to
 * itself and receives it, over and over. Without a second process there is no scheduling and no wait for a
 * reply in the figure, only the work of the calls: the facade's {@code send} and {@code recv}, or (with
 * {@code --ffm}) the floor {@link FfmFloor} measures, the same nonblocking downcalls completed by test loops
 * and the array copied in and out of one native buffer. The difference between the two is the facade's own
 * work per message, steadier than a ping-pong's (whose one-way time also holds the peer's reaction).
 *
 * <p>With {@code --exchange} the loop is SmallExchange's instead: {@code iRecv}, {@code iSend} and
 * {@code Request.waitAll} on direct buffers, through the {@code mpi} API alone, so the same kernel runs on Open MPI's
 * own binding ({@code -cp mpi.jar:fthp-bench.jar}) and gives the CPU of its exchange beside the facade's.
 *
 * <p>The heap bytes allocated per send and receive are printed too: every object the data path makes per message
 * costs its allocation, and more young collections.
 *
 * <p>Run as one rank: {@code mpirun -np 1 java --enable-native-access=ALL-UNNAMED -cp fthp-mpi.jar:fthp-bench.jar
 * org.fthp.bench.SelfLoop [--ffm | --exchange] [--bytes 8] [--slices 15] [--per-slice 200000]} (bench/floor.sh
 * runs it; on a busy machine many short slices, {@code --slices 200 --per-slice 10000}, give a fastest slice the
 * scheduler did not interrupt). Prints
 * {@code selfloop <facade|ffm|exchange> <bytes> <ns per send and receive> <fastest slice> <slowest slice> <heap bytes per send and
 * receive>}: the median of the slices, {@link #PER_SLICE} sends and receives each unless told, after {@link #WARM}.
 */
public final class SelfLoop {

    static final int DEFAULT_SLICES = 15;
    static final int PER_SLICE = 200_000;
    static final int WARM = 2_000_000;

    private SelfLoop() {}

    public static void main(String[] args) throws MPIException {
        boolean ffm = false;
        boolean exchange = false;
        int bytes = 8;
        int sliceCount = DEFAULT_SLICES;
        int perSlice = PER_SLICE;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--ffm")) ffm = true;
            else if (args[i].equals("--exchange")) exchange = true;
            else if (args[i].equals("--bytes") && i + 1 < args.length) bytes = Integer.parseInt(args[++i]);
            else if (args[i].equals("--slices") && i + 1 < args.length) sliceCount = Integer.parseInt(args[++i]);
            else if (args[i].equals("--per-slice") && i + 1 < args.length) perSlice = Integer.parseInt(args[++i]);
            else {
                usage();
            }
        }
        if (bytes < 0 || sliceCount < 1 || perSlice < 1 || (ffm && exchange)) {
            usage();
        }
        byte[] array = new byte[Math.max(bytes, 1)];
        Arrays.fill(array, (byte) 1);
        double[] slices = new double[sliceCount];
        Kernel kernel = ffm ? new Floor(bytes) : exchange ? new Exchange(bytes) : new Facade(bytes);
        kernel.run(array, WARM);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long allocated0 = threads.getCurrentThreadAllocatedBytes();
        for (int k = 0; k < sliceCount; k++) {
            long t0 = System.nanoTime();
            kernel.run(array, perSlice);
            slices[k] = (System.nanoTime() - t0) / (double) perSlice;
        }
        double allocatedPerPair = (threads.getCurrentThreadAllocatedBytes() - allocated0)
                / ((double) sliceCount * perSlice);
        kernel.close();
        Arrays.sort(slices);
        System.out.printf(Locale.ROOT, "selfloop %s %d %.1f %.1f %.1f %.1f%n",
                ffm ? "ffm" : exchange ? "exchange" : "facade", bytes,
                slices[sliceCount / 2], slices[0], slices[sliceCount - 1], allocatedPerPair);
    }

    private static void usage() {
        System.err.println("usage: SelfLoop [--ffm | --exchange] [--bytes n >= 0] [--slices n >= 1] [--per-slice n >= 1]");
        System.exit(2);
    }

    private interface Kernel {
        void run(byte[] array, int iters) throws MPIException;

        void close() throws MPIException;
    }

    /** The facade's blocking send and receive, to this process itself. */
    private static final class Facade implements Kernel {
        private final int bytes;
        private final int self;

        Facade(int bytes) throws MPIException {
            this.bytes = bytes;
            MPI.Init(new String[0]);
            this.self = MPI.COMM_WORLD.getRank();
        }

        @Override
        public void run(byte[] array, int iters) throws MPIException {
            for (int i = 0; i < iters; i++) {
                MPI.COMM_WORLD.send(array, bytes, MPI.BYTE, self, 1);
                MPI.COMM_WORLD.recv(array, bytes, MPI.BYTE, self, 1);
            }
        }

        @Override
        public void close() throws MPIException {
            MPI.Finalize();
        }
    }

    /** SmallExchange's loop with this process as its peer: iRecv, iSend, waitAll, direct buffers. */
    private static final class Exchange implements Kernel {
        private final int bytes;
        private final int self;
        private final ByteBuffer in;
        private final ByteBuffer out;
        private final Request[] both = new Request[2];

        Exchange(int bytes) throws MPIException {
            this.bytes = bytes;
            MPI.Init(new String[0]);
            this.self = MPI.COMM_WORLD.getRank();
            this.in = MPI.newByteBuffer(Math.max(bytes, 1));
            this.out = MPI.newByteBuffer(Math.max(bytes, 1));
        }

        @Override
        public void run(byte[] array, int iters) throws MPIException {
            for (int i = 0; i < iters; i++) {
                both[0] = MPI.COMM_WORLD.iRecv(in, bytes, MPI.BYTE, self, 1);
                both[1] = MPI.COMM_WORLD.iSend(out, bytes, MPI.BYTE, self, 1);
                Request.waitAll(both);
            }
        }

        @Override
        public void close() throws MPIException {
            MPI.Finalize();
        }
    }

    /** The bare downcalls: isend and irecv, each completed by a test loop, through one native buffer. */
    private static final class Floor implements Kernel {
        private final int bytes;
        private final int self;
        private final MemorySegment sendRequest, recvRequest, flag, status, sendStaging, recvStaging;

        Floor(int bytes) {
            this.bytes = bytes;
            Arena arena = Arena.ofAuto();
            MemorySegment provided = arena.allocate(ValueLayout.JAVA_INT);
            Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, 0, provided);
            MemorySegment rankOut = arena.allocate(ValueLayout.JAVA_INT);
            Empi.commRank(Empi.COMM_WORLD, rankOut);
            this.self = rankOut.get(ValueLayout.JAVA_INT, 0);
            this.sendRequest = arena.allocate(Empi.HANDLE_BYTES, 8);
            this.recvRequest = arena.allocate(Empi.HANDLE_BYTES, 8);
            this.flag = arena.allocate(ValueLayout.JAVA_INT);
            this.status = arena.allocate(Empi.STATUS_BYTES, 8);
            this.sendStaging = arena.allocate(Math.max(bytes, 1), 64);
            this.recvStaging = arena.allocate(Math.max(bytes, 1), 64);
        }

        @Override
        public void run(byte[] array, int iters) {
            for (int i = 0; i < iters; i++) {
                MemorySegment.copy(array, 0, sendStaging, ValueLayout.JAVA_BYTE, 0, bytes);
                Empi.isend(sendStaging, bytes, Empi.BYTE, self, 1, Empi.COMM_WORLD, sendRequest);
                finish(sendRequest);
                Empi.irecv(recvStaging, bytes, Empi.BYTE, self, 1, Empi.COMM_WORLD, recvRequest);
                finish(recvRequest);
                MemorySegment.copy(recvStaging, ValueLayout.JAVA_BYTE, 0, array, 0, bytes);
            }
        }

        private void finish(MemorySegment request) {
            do {
                Empi.test(request, flag, status);
            } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
        }

        @Override
        public void close() {
            Empi.finalizeMpi();
        }
    }
}
