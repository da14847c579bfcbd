package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library preloaded into mpirun (proxy-launcher/native/fthp_proxy.c) on a
 * plain native MPI job: a rank killed by a signal is hidden from mpirun, the
 * survivors communicate, build a communicator of themselves and finalize, and
 * mpirun exits 0; without the library the same job is aborted.
 */
class ProxyLibraryTest {

    @TempDir
    static Path dir;

    private static Path program;

    @BeforeAll
    static void compile() throws Exception {
        Path source = dir.resolve("survivors.c");
        try (InputStream in = ProxyLibraryTest.class.getResourceAsStream("survivors.c")) {
            Files.copy(in, source);
        }
        program = dir.resolve("survivors");
        MpiJob.Result r = MpiJob.exec(List.of("mpicc", "-o", program.toString(), source.toString()),
                Duration.ofSeconds(60), Map.of());
        assertEquals(0, r.exitCode(), r.stderr());
        r.assertNoLeftovers();
    }

    private static List<String> mpirun(boolean hideDeaths) {
        List<String> cmd = new ArrayList<>(List.of("mpirun"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--allow-run-as-root");
        }
        cmd.add("--oversubscribe");
        if (hideDeaths) {
            cmd.addAll(List.of("--mca", "orte_allowed_exit_without_sync", "1"));
        }
        cmd.addAll(List.of("-np", "3", program.toString()));
        return cmd;
    }

    @Test
    void aKilledRankIsHiddenAndTheSurvivorsFinish() throws Exception {
        Path library = MpiJob.home().resolve("proxy-launcher/target/libfthp_proxy.so");
        Path reports = dir.resolve("reports.txt");
        MpiJob.Result r = MpiJob.exec(mpirun(true), Duration.ofSeconds(60),
                Map.of("LD_PRELOAD", library.toString(), "FTHP_PROXY_REPORT", reports.toString()));
        assertEquals(0, r.exitCode(), "mpirun must finish cleanly:\n" + r.stdout() + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stdout().contains("rank 0 create_group rc 0 size 2"), r.stdout());
        assertTrue(r.stdout().contains("rank 2 finalized"), r.stdout());
        assertTrue(r.stdout().contains("rank 0 finalized"), r.stdout());
        assertEquals(1, Files.readAllLines(reports).size(), "one hidden death reported");
    }

    @Test
    void withoutTheLibraryMpirunAbortsTheJob() {
        MpiJob.Result r = MpiJob.exec(mpirun(false), Duration.ofSeconds(60), Map.of());
        assertNotEquals(0, r.exitCode(), r.stdout() + r.stderr());
        r.assertNoLeftovers();
    }
}
