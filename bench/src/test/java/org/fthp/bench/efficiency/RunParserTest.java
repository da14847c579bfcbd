package org.fthp.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunParserTest {

    static final List<String> EVENTS = List.of(
            "{\"time\":\"2026-11-24T17:41:47.36Z\",\"event\":\"checkpoint-interval\",\"seconds\":2.383277,\"basis\":\"Daly: cost 0.100 s assumed\"}",
            "{\"time\":\"2026-11-24T17:42:05.18Z\",\"event\":\"checkpoint-committed\",\"epoch\":1,\"bytes\":3144,\"costSeconds\":0.742873}",
            "{\"time\":\"2026-11-24T17:42:06.23Z\",\"event\":\"failure-injected\",\"pid\":8953,\"nativeRank\":1,\"logicalRank\":1,\"role\":\"CMP\",\"cause\":\"weibull\"}",
            "{\"time\":\"2026-11-24T17:42:06.42Z\",\"event\":\"failure-detected\",\"epoch\":1,\"pid\":8953,\"nativeRank\":1,\"logicalRank\":1,\"role\":\"CMP\",\"cause\":\"proxy-report\"}",
            "{\"time\":\"2026-11-24T17:42:06.95Z\",\"event\":\"job-restarted\",\"restart\":1,\"epoch\":1,\"logicalRank\":1,\"lostWorkSeconds\":1.605,\"restartSeconds\":0.158,\"replicas\":0}",
            "{\"time\":\"2026-11-24T17:42:18.36Z\",\"event\":\"checkpoint-interval\",\"seconds\":6.190189,\"basis\":\"Daly: cost 0.743 s\"}",
            "{\"time\":\"2026-11-24T17:42:32.29Z\",\"event\":\"checkpoint-committed\",\"epoch\":2,\"bytes\":3176,\"costSeconds\":0.256530}",
            "{\"time\":\"2026-11-24T17:42:41.48Z\",\"event\":\"failure-injected\",\"pid\":9722,\"nativeRank\":1,\"logicalRank\":1,\"role\":\"CMP\",\"cause\":\"weibull\"}",
            "{\"time\":\"2026-11-24T17:42:41.96Z\",\"event\":\"job-restarted\",\"restart\":2,\"epoch\":-1,\"lostWorkSeconds\":2.931,\"restartSeconds\":0.317,\"replicas\":0}");

    static final List<String> STDERR = List.of(
            "fthp-run: restart 1 of 40: rank 1 lost every copy; relaunching 4 processes",
            "fthp-run: summary: 2 logical ranks, 2 replicas; computational side sent 10 messages (1 KiB), replica side 9 "
                    + "messages (1 KiB); peak message log 2.0 KiB per process; log trimming 12.5 ms (most in one process); "
                    + "4 of 4 processes reported",
            "fthp-run: summary: 3 failures detected, 2 promotions, 2 repairs; repair time median 150.0 ms, max 300.0 ms "
                    + "(over 6 survivor repairs)");

    static final String REPORT = "Floating Point Operations Summary::Raw MG=1e9\n"
            + "Floating Point Operations Summary::Total=5.60717e+09\n"
            + "Final Summary::HPCG result is VALID with a GFLOP/s rating of=0.29311\n";

    @Test
    void eventsSummaryAndReport() {
        RunRecord r = RunParser.fromText(Mode.REPLICATION_CHECKPOINT, 3, 2, 2, 120, 80.5, 0, 12.0, EVENTS, STDERR,
                AppResult.ofHpcgReport(REPORT));
        assertEquals(4, r.processes());
        assertEquals(2, r.failures());
        assertEquals(2, r.restarts());
        assertEquals(List.of(0.742873, 0.256530), r.checkpointCosts());
        assertEquals(0.742873 + 0.256530, r.checkpointSeconds(), 1e-12);
        assertEquals(6.190189, r.intervalSeconds(), 1e-12, "the last interval announced");
        assertEquals(1.605 + 2.931, r.lostWorkSeconds(), 1e-12);
        assertEquals(0.158 + 0.317, r.relaunchSeconds(), 1e-12);
        assertEquals(2, r.repairs());
        assertEquals(0.3, r.repairSeconds(), 1e-12, "2 repairs x 150 ms");
        assertEquals(0.0125, r.logTrimSeconds(), 1e-12);
        assertEquals(5.60717e9, r.work());
        assertEquals("HPCG", r.app());
        assertTrue(r.completed());
    }

    @Test
    void aRunWithoutAValidReportOrWithAnErrorExitKeptNoWork() {
        assertFalse(RunParser.fromText(Mode.REPLICATION, 1, 2, 2, 120, 80, 4, 1, EVENTS, STDERR,
                AppResult.ofHpcgReport("")).completed());
        assertFalse(RunParser.fromText(Mode.REPLICATION, 1, 2, 2, 120, 80, 0, 1, EVENTS, STDERR,
                AppResult.ofHpcgReport(REPORT.replace("VALID", "INVALID"))).completed());
        assertFalse(RunParser.fromText(Mode.REPLICATION, 1, 2, 2, 120, 80, 4, 1, EVENTS, STDERR,
                AppResult.ofHpcgReport(REPORT)).completed());
    }

    @Test
    void jsonFields() {
        String line = "{\"event\":\"job-restarted\",\"epoch\":-1,\"x\":null,\"cost\":1.5e-3}";
        assertEquals("job-restarted", JsonFields.text(line, "event").orElseThrow());
        assertEquals(-1.0, JsonFields.number(line, "epoch").orElseThrow());
        assertEquals(0.0015, JsonFields.number(line, "cost").orElseThrow());
        assertTrue(JsonFields.number(line, "x").isEmpty(), "null is no number");
        assertTrue(JsonFields.number(line, "missing").isEmpty());
    }

    @Test
    void cloverLeafsWorkIsItsCellUpdatesAndItsAnswerTheSummariesDigest() {
        String out = " Wall clock 41.2\n Benchmark: 400 steps of 480x240 cells on 2 rank(s): 41.2 s, 103 ms/step\n";
        byte[] summaries = "1 0.04 1.0e2 ...\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        AppResult a = AppResult.ofCloverLeaf(out, summaries);
        assertEquals("CloverLeaf", a.app());
        assertEquals(400.0 * 480 * 240, a.work());
        assertTrue(a.valid());
        assertEquals(64, a.answer().length());
        assertEquals(a.answer(), AppResult.ofCloverLeaf(out, summaries.clone()).answer());
        assertFalse(AppResult.ofCloverLeaf(" Wall clock 3\n", summaries).valid(), "no Benchmark line: it did not finish");
        assertFalse(AppResult.ofCloverLeaf(out, new byte[0]).valid(), "no field summaries");
    }
}
