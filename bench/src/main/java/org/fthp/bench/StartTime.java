package org.fthp.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import mpi.MPI;
import mpi.MPIException;

/**
 * What a job's start costs each process (bench/start.sh drives it; not a test): {@code MPI.Init}, one
 * barrier, {@code MPI.Finalize}, nothing else. Every process, replicas included (their output is not relayed),
 * writes one line into a file of its own under the directory given as the only argument:
 *
 * <pre>
 * start process P main M init I barrier B cpu-main C1 cpu-init C2
 * </pre>
 *
 * P, M, I, B: epoch milliseconds when the process started (the kernel's start time, {@link ProcessStart}),
 * {@code main} began, {@code MPI.Init} returned, the first barrier returned. C1, C2: the process's CPU time (user
 * + system, all its threads, milliseconds) when {@code main} began and when {@code MPI.Init} returned: on a shared
 * machine the CPU a start costs says more than its wall time.
 */
public final class StartTime {

    private StartTime() {}

    public static void main(String[] args) throws MPIException, IOException {
        long mainAt = System.currentTimeMillis();
        long cpuMain = cpuMillis();
        MPI.Init(args);
        long initAt = System.currentTimeMillis();
        long cpuInit = cpuMillis();
        MPI.COMM_WORLD.barrier();
        long barrierAt = System.currentTimeMillis();
        ProcessHandle self = ProcessHandle.current();
        long started = ProcessStart.epochMillis();
        Files.writeString(Path.of(args[0], "start." + self.pid()),
                "start process " + started + " main " + mainAt + " init " + initAt + " barrier " + barrierAt
                        + " cpu-main " + cpuMain + " cpu-init " + cpuInit + "\n");
        MPI.Finalize();
    }

    private static long cpuMillis() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
    }
}
