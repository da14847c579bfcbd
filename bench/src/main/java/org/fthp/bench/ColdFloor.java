package org.fthp.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;

import org.fthp.empi.Empi;

/**
 * {@link FfmFloor}'s bare path run the way {@link ColdPingPong} runs: a 2-rank ping-pong of {@code byte[]} straight
 * over the native MPI (each send and receive posted non-blocking and completed by a test loop, the array copied
 * into and out of one native buffer), timed from MPI_Init on with no warm-up, so the figures show what the JVM's
 * interpreter and C1 pay for the native-call path itself, without any of the facade. The {@link FloorPath} decides
 * how Java reaches MPI (the EMPI FFM downcalls, or the prototype's fewer, fatter calls).
 *
 * <pre>
 * mpirun -np 2 java --enable-native-access=ALL-UNNAMED -cp fthp-mpi.jar:fthp-bench.jar org.fthp.bench.ColdFloor \
 *     [--path ffm|fat|jni] [--settle ms] [--rounds N] [--sizes n,n,...]
 * </pre>
 *
 * <p>Prints {@link ColdPingPong}'s lines ({@code coldpingpong}, {@code coldtenths}, {@code coldjit}), so
 * {@link ColdStartReport} reads them alike, and {@code coldjitstart <ms>}, what the compiler threads used before the
 * timing began. {@code --settle} idles that long before the timing, to tell the compiles start-up queued from
 * those of the timed path.
 */
public final class ColdFloor {

    private ColdFloor() {}

    public static void main(String[] args) {
        String pathName = "ffm";
        long settleMillis = 0;
        String[] rest = args;
        while (rest.length >= 2 && (rest[0].equals("--path") || rest[0].equals("--settle"))) {
            try {
                if (rest[0].equals("--path")) {
                    pathName = rest[1];
                } else {
                    settleMillis = Long.parseLong(rest[1]);
                }
            } catch (NumberFormatException e) {
                rest = new String[] {"?"};
                break;
            }
            rest = Arrays.copyOfRange(rest, 2, rest.length);
        }
        ColdPingPong.Options options = ColdPingPong.Options.parse(rest);
        if (options == null) {
            System.err.println("usage: ColdFloor [--path ffm|fat|jni] [--settle ms] [--rounds N (a positive multiple"
                    + " of 10)] [--sizes n,n,...]");
            System.exit(2);
        }
        Arena arena = Arena.ofAuto();
        MemorySegment provided = arena.allocate(ValueLayout.JAVA_INT);
        Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, 0, provided);
        MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
        Empi.commRank(Empi.COMM_WORLD, out);
        int rank = out.get(ValueLayout.JAVA_INT, 0);
        int max = Math.max(1, Arrays.stream(options.sizes()).max().orElse(0));
        FloorPath path = FloorPath.of(pathName, arena, max);
        if (path == null) {
            System.err.println("ColdFloor: unknown --path " + pathName);
            System.exit(2);
        }
        byte[] buf = new byte[max];
        Arrays.fill(buf, (byte) 1);
        int perTenth = options.rounds() / ColdPingPong.TENTHS;
        double[][] tenths = new double[options.sizes().length][ColdPingPong.TENTHS];
        if (settleMillis > 0) {
            // diagnosis only: lets the compiles that start-up queued finish before the timing, ranks idle
            try {
                Thread.sleep(settleMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        double jitBefore = JitCpu.millis();
        for (int s = 0; s < options.sizes().length; s++) {
            barrier(arena);
            long t = System.nanoTime();
            for (int k = 0; k < ColdPingPong.TENTHS; k++) {
                loop(path, rank, buf, options.sizes()[s], perTenth);
                long now = System.nanoTime();
                tenths[s][k] = (now - t) / 1e9;
                t = now;
            }
        }
        double jitMillis = JitCpu.millis() - jitBefore;
        if (rank == 0) {
            int[] sizes = options.sizes();
            for (int s = 0; s < sizes.length; s++) {
                double total = Arrays.stream(tenths[s]).sum();
                System.out.printf(Locale.ROOT, "coldpingpong %d %.4f %.4f %.4f%n", sizes[s],
                        ColdPingPong.oneWayMicros(total, options.rounds()),
                        ColdPingPong.oneWayMicros(tenths[s][0], perTenth),
                        ColdPingPong.oneWayMicros(tenths[s][ColdPingPong.TENTHS - 1], perTenth));
            }
            for (int s = 0; s < sizes.length; s++) {
                StringBuilder line = new StringBuilder("coldtenths ").append(sizes[s]);
                for (double tenth : tenths[s]) {
                    line.append(String.format(Locale.ROOT, " %.3f", ColdPingPong.oneWayMicros(tenth, perTenth)));
                }
                System.out.println(line);
            }
            if (jitBefore >= 0) {
                System.out.printf(Locale.ROOT, "coldjit %.0f%n", jitMillis);
                System.out.printf(Locale.ROOT, "coldjitstart %.0f%n", jitBefore);
            }
            System.out.flush();
        }
        barrier(arena);
        Empi.finalizeMpi();
    }

    private static void loop(FloorPath path, int rank, byte[] buf, int n, int rounds) {
        for (int i = 0; i < rounds; i++) {
            if (rank == 0) {
                path.send(buf, n, 1);
                path.recv(buf, n, 1);
            } else if (rank == 1) {
                path.recv(buf, n, 0);
                path.send(buf, n, 0);
            }
        }
    }

    private static void barrier(Arena arena) {
        MemorySegment request = Empi.allocateHandles(arena, 1);
        MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment status = Empi.allocateStatuses(arena, 1);
        Empi.ibarrier(Empi.COMM_WORLD, request);
        do {
            Empi.test(request, flag, status);
        } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
    }
}
