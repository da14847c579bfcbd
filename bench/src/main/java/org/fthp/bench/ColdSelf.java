package org.fthp.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

import mpi.MPI;
import mpi.MPIException;

import org.fthp.empi.Empi;

/**
 * The CPU a small message costs one rank from its first call on, with no peer: one process sends a {@code byte[]}
 * to itself and receives it, from MPI_Init on with no warm-up, and each tenth of the round trips is timed by the
 * main thread's CPU clock. A ping-pong from cold on a shared two-core host mostly measures the scheduler (a rank
 * that loses its core costs its peer a time slice of spinning); this figure is what the calls themselves cost
 * while the JVM interprets, then C1-compiles, then C2-compiles them, beside the CPU the compiler threads take.
 *
 * <pre>
 * ColdSelf --path mpi|ffm|fat|jni [--rounds N] [--sizes n,n,...]     # one rank, Open MPI
 * </pre>
 *
 * <p>The sizes must be ones the MPI completes a send to self of before the receive is posted: Open MPI does up to
 * 512 B; larger ones, and MPICH's, wait for a receive that is never posted (the run's timeout ends it).
 *
 * <p>{@code mpi}: the program's own {@code comm.send} / {@code comm.recv} (FTHP-J's facade, or Open MPI's binding
 * when its mpi.jar is first on the class path); the others are {@link ColdFloor}'s paths over the bare native
 * calls. Prints per size {@code coldself <bytes> <cpu ns per send+recv over all> <x10: each tenth>}, then
 * {@code coldjit <ms>}, the compiler threads' CPU over the timed part.
 */
public final class ColdSelf {

    private static final int TAG = 3;

    private ColdSelf() {}

    public static void main(String[] args) throws MPIException {
        String pathName = args.length >= 2 && args[0].equals("--path") ? args[1] : null;
        ColdPingPong.Options options = pathName == null ? null
                : ColdPingPong.Options.parse(Arrays.copyOfRange(args, 2, args.length));
        if (options == null) {
            System.err.println("usage: ColdSelf --path mpi|ffm|fat|jni [--rounds N (a multiple of 10)]"
                    + " [--sizes n,n,...]");
            System.exit(2);
        }
        int max = Math.max(1, Arrays.stream(options.sizes()).max().orElse(0));
        Loop loop;
        if (pathName.equals("mpi")) {
            MPI.Init(args);
            loop = (buf, n, rounds) -> {
                for (int i = 0; i < rounds; i++) {
                    MPI.COMM_WORLD.send(buf, n, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.recv(buf, n, MPI.BYTE, 0, TAG);
                }
            };
        } else {
            Arena arena = Arena.ofAuto();
            Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, 0, arena.allocate(ValueLayout.JAVA_INT));
            FloorPath path = FloorPath.of(pathName, arena, max);
            if (path == null) {
                System.err.println("ColdSelf: unknown or unavailable --path " + pathName);
                System.exit(2);
            }
            loop = (buf, n, rounds) -> {
                for (int i = 0; i < rounds; i++) {
                    path.send(buf, n, 0);
                    path.recv(buf, n, 0);
                }
            };
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        byte[] buf = new byte[max];
        Arrays.fill(buf, (byte) 1);
        int perTenth = options.rounds() / ColdPingPong.TENTHS;
        long[][] tenths = new long[options.sizes().length][ColdPingPong.TENTHS];
        double jitBefore = JitCpu.millis();
        for (int s = 0; s < options.sizes().length; s++) {
            long t = threads.getCurrentThreadCpuTime();
            for (int k = 0; k < ColdPingPong.TENTHS; k++) {
                loop.run(buf, options.sizes()[s], perTenth);
                long now = threads.getCurrentThreadCpuTime();
                tenths[s][k] = now - t;
                t = now;
            }
        }
        double jitMillis = JitCpu.millis() - jitBefore;
        for (int s = 0; s < options.sizes().length; s++) {
            StringBuilder line = new StringBuilder("coldself ").append(options.sizes()[s]).append(String.format(
                    Locale.ROOT, " %.0f", (double) Arrays.stream(tenths[s]).sum() / options.rounds()));
            for (long tenth : tenths[s]) {
                line.append(String.format(Locale.ROOT, " %.0f", (double) tenth / perTenth));
            }
            System.out.println(line);
        }
        if (jitBefore >= 0) {
            System.out.printf(Locale.ROOT, "coldjit %.0f%n", jitMillis);
        }
        System.out.flush();
        if (pathName.equals("mpi")) {
            MPI.Finalize();
        } else {
            Empi.finalizeMpi();
        }
    }

    /** {@code rounds} sends to self and receives of {@code n} bytes of {@code buf}. */
    private interface Loop {
        void run(byte[] buf, int n, int rounds) throws MPIException;
    }
}
