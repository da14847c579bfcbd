package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.fthp.it.programs.BadInputErrors;
import org.fthp.it.programs.CollBlocking;
import org.fthp.it.programs.CollInter;
import org.fthp.it.programs.P2pBasics;
import org.fthp.it.programs.RepairP2p;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small part of the suite on MPICH (fthp-run --mpi mpich), the second native library (docs/notes/mpich.md): three
 * unreplicated programs and the tag bound MPICH lowers, a replicated run, a kill survived under hydra with the
 * failure-free output, and a rank losing every copy (exit 4, nothing left running). The rest of the suite can run on
 * MPICH with {@code -Dfthp.mpi=mpich}.
 *
 * <p>Skipped where MPICH is not installed, unless {@code FTHP_MPI=mpich} says it was asked for (scripts/test.sh), in
 * which case its absence fails. The kills are by call count, so they land at the same point of the program on a
 * loaded machine too.
 */
class MpichTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final List<String> MPICH = List.of("--mpi", "mpich");
    /** Iterations and microseconds of computation each: a few seconds, about 5 MPI calls per iteration. */
    private static final String[] WORKLOAD = {"300", "1000"};

    @TempDir
    static Path dir;

    private static List<String> expected;

    @BeforeAll
    static void mpichInstalled() {
        boolean installed = onPath("mpiexec.hydra") && onPath("mpicc.mpich");
        if (!installed && "mpich".equals(System.getenv("FTHP_MPI"))) {
            throw new AssertionError("FTHP_MPI=mpich but MPICH is not installed (run FTHP_MPI=mpich scripts/setup.sh)");
        }
        Assumptions.assumeTrue(installed, "MPICH is not installed (FTHP_MPI=mpich scripts/setup.sh installs it)");
    }

    private static boolean onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }

    private static MpiJob.Result run(List<String> options, int np, Class<?> program, String... args) {
        List<String> all = new ArrayList<>(MPICH);
        all.addAll(options);
        return MpiJob.runWith(all, np, TIMEOUT, program, args);
    }

    /** The replicated runs' reference: RepairP2p's output on MPICH without replicas or failures. */
    private static synchronized List<String> failureFree() {
        if (expected == null) {
            expected = run(List.of(), 2, RepairP2p.class, WORKLOAD).assertSuccess().lines();
        }
        return expected;
    }

    @Test
    void unreplicatedProgramsPass() {
        P2pTest.assertAllRanksOk(run(List.of("--verbose"), 4, P2pBasics.class), "P2pBasics", 4);
        MpiJob.Result coll = run(List.of(), 3, CollBlocking.class).assertSuccess();
        assertTrue(coll.stdout().contains("CollBlocking OK np=3"), coll.stdout());
    }

    /** Intercommunicator broadcasts from every root: MPICH 4.0's own MPI_Ibcast loses them (the binding works around). */
    @Test
    void intercommunicatorBroadcastsFromAnyRoot() {
        MpiJob.Result r = run(List.of(), 4, CollInter.class).assertSuccess();
        assertTrue(r.stdout().contains("CollInter OK np=4"), r.stdout() + "\n" + r.stderr());
    }

    /** The program's TAG_UB is MPICH's own bound (2^28-1), and a send at it is accepted natively. */
    @Test
    void tagBoundIsTheLibrarys() {
        MpiJob.Result r = run(List.of("--verbose"), 2, BadInputErrors.class).assertSuccess();
        assertTrue(r.stderr().contains("mpiexec.hydra"), "launched by hydra:\n" + r.stderr());
        assertTrue(r.lines().contains("OK send with tag TAG_UB+1"), "refused by the facade:\n" + r.stdout());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(r.lines().contains("BadInputErrors OK rank " + rank), r.stdout() + "\n" + r.stderr());
        }
    }

    @Test
    void replicatedRunGivesTheSameOutput() {
        MpiJob.Result r = run(List.of("--replicas", "2", "--nodes", "1"), 2, RepairP2p.class, WORKLOAD)
                .assertSuccess();
        assertEquals(failureFree(), r.lines(), "stderr:\n" + r.stderr());
    }

    @Test
    void aKilledCopyIsSurvivedWithTheFailureFreeOutput() throws Exception {
        Path events = dir.resolve("survived.jsonl");
        MpiJob.Result r = run(List.of("--replicas", "2", "--nodes", "1", "--events", events.toString(),
                "--kill", "1:cmp#400"), 2, RepairP2p.class, WORKLOAD).assertSuccess();
        assertEquals(failureFree(), r.lines(), "stdout differs from the failure-free run\n--- stderr ---\n"
                + r.stderr());
        assertEquals(1, Files.readAllLines(events).stream()
                .filter(l -> l.contains("\"event\":\"failure-detected\"")).count(), "the death was detected");
        assertTrue(r.stderr().contains("summary: 1 failure detected, 1 promotion"), r.stderr());
    }

    @Test
    void losingEveryCopyOfARankEndsTheJobNamingIt() {
        MpiJob.Result r = run(List.of("--replicas", "2", "--nodes", "1", "--kill", "1:rep#300",
                "--kill", "1:cmp#700"), 2, RepairP2p.class, WORKLOAD);
        assertEquals(4, r.exitCode(), "the coordinators end the job:\n" + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stderr().contains("logical rank 1 lost all its copies"), r.stderr());
    }
}
