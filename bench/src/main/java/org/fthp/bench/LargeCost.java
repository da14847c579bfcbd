package org.fthp.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * What one large message costs each side, in CPU and in wall time (not a test; the large-message path):
 * ranks 0 and 1 ping-pong {@code BYTES} bytes, ROUNDS round trips per slice after a warm-up of the same
 * size only (no small sizes: a profiler attached to the run then sees this size alone).
 * <pre>
 * java ... LargeCost BYTES ROUNDS SLICES [--arrays] [--self]
 * </pre>
 * {@code --self}: every rank instead exchanges the message with itself ({@code sendRecv} to its own rank,
 * from one buffer into another), so nobody waits for another process and the thread's CPU time is the
 * cost of the engine's work on both sides of a message (with replicas: and of logging it), which load on
 * the machine does not change.
 * Every rank prints, per slice, {@code largecost <rank> <bytes> <oneway_us> <thread_cpu_us> <process_cpu_us>}:
 * one-way time = slice / ROUNDS / 2; the CPU time of the thread that calls MPI (where the engine's
 * work runs), and of the whole process (all threads, in clock ticks: coarse unless ROUNDS is large),
 * per round trip; then {@code largecost-median} of each. Under load the CPU figures still hold (they
 * count only this process's work), except for what waiting costs (a waiting rank spins, then yields);
 * the wall time does not.
 */
public final class LargeCost {

    private LargeCost() {}

    public static void main(String[] args) throws MPIException {
        int bytes = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int slices = Integer.parseInt(args[2]);
        boolean arrays = false;
        boolean self = false;
        for (int i = 3; i < args.length; i++) {
            arrays |= args[i].equals("--arrays");
            self |= args[i].equals("--self");
        }
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        Object buf = PingPong.buffer(bytes, arrays);
        Object other = self ? PingPong.buffer(bytes, arrays) : null;
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        comm.barrier();
        run(comm, rank, buf, other, bytes, Math.max(20, rounds));
        double[] wall = new double[slices];
        double[] cpu = new double[slices];
        double[] threadCpu = new double[slices];
        for (int s = 0; s < slices; s++) {
            comm.barrier();
            long c0 = os.getProcessCpuTime();
            long tc0 = threads.getCurrentThreadCpuTime();
            double t0 = MPI.wtime();
            run(comm, rank, buf, other, bytes, rounds);
            wall[s] = (MPI.wtime() - t0) / rounds / 2 * 1e6;
            threadCpu[s] = (threads.getCurrentThreadCpuTime() - tc0) / 1e3 / rounds;
            cpu[s] = (os.getProcessCpuTime() - c0) / 1e3 / rounds;
        }
        comm.barrier();
        if (rank < 2 || self) {
            StringBuilder out = new StringBuilder();
            for (int s = 0; s < slices; s++) {
                out.append(String.format(Locale.ROOT, "largecost %d %d %.1f %.1f %.1f%n", rank, bytes, wall[s],
                        threadCpu[s], cpu[s]));
            }
            Arrays.sort(wall);
            Arrays.sort(cpu);
            Arrays.sort(threadCpu);
            out.append(String.format(Locale.ROOT, "largecost-median %d %d %.1f %.1f %.1f%n", rank, bytes,
                    wall[slices / 2], threadCpu[slices / 2], cpu[slices / 2]));
            System.out.print(out);
            System.out.flush();
        }
        MPI.Finalize();
    }

    private static void run(Intracomm comm, int rank, Object buf, Object other, int n, int iters)
            throws MPIException {
        if (other == null) {
            PingPong.loop(comm, rank, buf, n, iters);
            return;
        }
        for (int i = 0; i < iters; i++) {
            comm.sendRecv(buf, n, MPI.BYTE, rank, 1, other, n, MPI.BYTE, rank, 1);
        }
    }
}
