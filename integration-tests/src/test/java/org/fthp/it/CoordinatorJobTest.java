package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.fthp.it.programs.FailureHalt;
import org.fthp.it.programs.P2pBasics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Jobs with coordinators (fthp-run --nodes K): every rank registers, and a lost rank ends the job. */
class CoordinatorJobTest {

    @TempDir
    Path dir;

    @Test
    void aJobWithCoordinatorsRunsAsUsualAndLogsNoFailure() throws Exception {
        Path events = dir.resolve("events.jsonl");
        MpiJob.Result r = MpiJob.runWith(List.of("--nodes", "2", "--events", events.toString()), 4,
                MpiJob.DEFAULT_TIMEOUT, P2pBasics.class).assertSuccess();
        assertTrue(r.stdout().contains("P2pBasics OK rank 3"), r.stdout());
        assertEquals(List.of(), Files.readAllLines(events), "no failure was detected");
    }

    @Test
    void aRankThatDiesWithoutReplicaEndsTheJobQuickly() throws Exception {
        Path events = dir.resolve("events.jsonl");
        long start = System.nanoTime();
        MpiJob.Result r = MpiJob.runWith(List.of("--nodes", "2", "--group-size", "1", "--events", events.toString()),
                4, Duration.ofSeconds(60), FailureHalt.class);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertNotEquals(0, r.exitCode(), "the job must fail");
        r.assertNoLeftovers();
        assertTrue(seconds < 30, "ended by the failure machinery, not a timeout: " + seconds + " s");
        assertTrue(!r.stdout().contains("NOT REACHED"), r.stdout());
        List<String> lines = Files.readAllLines(events);
        assertTrue(!lines.isEmpty() && lines.get(0).contains("\"event\":\"failure-detected\"")
                && lines.get(0).contains("\"nativeRank\":1"), "first detected failure is rank 1: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"event\":\"job-aborted\"") && l.contains("\"logicalRank\":1")),
                "the abort names rank 1: " + lines);
    }

    @Test
    void anInjectedKillIsLoggedDetectedAndEndsTheJob() throws Exception {
        // a kill's time counts from the moment every process has registered with its coordinator (the
        // injector waits for that), so 1 s is after registration however loaded the machine is
        Path events = dir.resolve("events.jsonl");
        MpiJob.Result r = MpiJob.runWith(List.of("--nodes", "2", "--events", events.toString(), "--kill", "1@1"),
                4, Duration.ofSeconds(60), FailureHalt.class, "wait");
        assertEquals(4, r.exitCode(), "the coordinators end the job: " + r.stderr());
        r.assertNoLeftovers();
        assertTrue(r.stderr().contains("rank=1"), r.stderr());
        // the proxy library kept the death from mpirun: the coordinators, not mpirun, ended the job
        assertFalse(r.stderr().contains("exited on signal"), r.stderr());
        List<String> lines = Files.readAllLines(events);
        assertTrue(lines.get(0).contains("\"event\":\"failure-injected\"") && lines.get(0).contains("\"nativeRank\":1"),
                "the kill comes first: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.contains("failure-detected") && l.contains("\"nativeRank\":1")
                && l.contains("\"epoch\":1")), "then its detection, epoch 1: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.contains("job-aborted") && l.contains("\"logicalRank\":1")), "" + lines);
    }
}
