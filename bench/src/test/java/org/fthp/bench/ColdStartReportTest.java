package org.fthp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ColdStartReportTest {

    private static final ColdStartReport.Row PING_8 =
            new ColdStartReport.Row("ping-pong byte[] 8 B, one-way µs", 1_000_000_008L, false);
    private static final ColdStartReport.Row HPCG = new ColdStartReport.Row("hpcg GFLOP/s", 0, true);

    @Test
    void takesRatiosWithinRepetitionsAndSpreadsOverThem(@TempDir Path dir) throws IOException {
        // the machine slow in repetition 2 for both sides: within repetitions FTHP-J is 1.2x, 1.1x, 0.9x the binding
        double[] binding = {1.0, 3.0, 1.1}, fthp = {1.2, 3.3, 0.99};
        for (int rep = 1; rep <= 3; rep++) {
            Files.writeString(dir.resolve("binding.pingpong." + rep + ".txt"),
                    "noise from mpirun\ncoldpingpong 8 " + binding[rep - 1] + " 2.0 0.9\n");
            Files.writeString(dir.resolve("fthp.pingpong." + rep + ".txt"), "coldpingpong 8 " + fthp[rep - 1] + " 4 1\n");
        }
        ColdStartReport r = new ColdStartReport();
        r.addDirectory(dir);
        List<Double> ratios = r.ratios("fthp", "binding", PING_8);
        assertEquals(3, ratios.size());
        assertEquals(1.1, BenchReport.median(ratios), 1e-12);
        assertEquals(3.0, ColdStartReport.spread(r.values("binding", PING_8).values()), 1e-12);
        assertEquals(3.3 / 0.99, ColdStartReport.spread(r.values("fthp", PING_8).values()), 1e-12);

        String md = print(r, "fthp", "binding");
        assertTrue(md.contains("| ping-pong byte[] 8 B, one-way µs | 1.10 | 1.00–3.00 | 3.00 | 1.20 | 0.990–3.30 | 3.33 "
                + "| 1.10 | 0.900–1.20 | 1 of 3 | 1.11 |"), md);
    }

    @Test
    void anAppGivesARateWhereHigherIsBetterAndAWallTime(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("binding.hpcg.1.txt"), "app hpcg 1.50 20.0\n");
        Files.writeString(dir.resolve("fthp.hpcg.1.txt"), "app hpcg 1.20 22.0\n");
        Files.writeString(dir.resolve("binding.hpcg.2.txt"), "app hpcg 1.00 30.0\n");
        Files.writeString(dir.resolve("fthp.hpcg.2.txt"), "app hpcg 1.10 24.0\n");
        ColdStartReport r = new ColdStartReport();
        r.addDirectory(dir);
        assertEquals(List.of(0.8, 1.1), r.ratios("fthp", "binding", HPCG).stream()
                .map(v -> Math.round(v * 1e9) / 1e9).toList());
        String md = print(r, "fthp", "binding");
        // one repetition in two FTHP-J's rating was at least the binding's; its wall time was shorter in one too
        assertTrue(md.contains("| hpcg GFLOP/s | 1.25 | 1.00–1.50 | 1.50 | 1.15 | 1.10–1.20 | 1.09 | 0.95 | 0.800–1.10 "
                + "| 1 of 2 |"), md);
        assertTrue(md.contains("| hpcg job wall s | 25.00 | 20.00–30.00 | 1.50 | 23.00 | 22.00–24.00 | 1.09 | 0.95 "
                + "| 0.800–1.10 | 1 of 2 |"), md);
        assertTrue(md.indexOf("hpcg GFLOP/s") < md.indexOf("hpcg job wall s"), md);
    }

    @Test
    void aRunWithoutAResultIsListedNotCounted(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("binding.cloverleaf.1.txt"), "app cloverleaf 3.1e7 40.0\n");
        Files.writeString(dir.resolve("fthp.cloverleaf.1.txt"), "fthp-run: rank 1 exited with 1\n");
        ColdStartReport r = new ColdStartReport();
        r.addDirectory(dir);
        String md = print(r, "fthp", "binding");
        assertTrue(md.contains("- fthp.cloverleaf: repetition [1]"), md);
        assertTrue(md.contains("| cloverleaf cell updates/s | 3.100e+07 | 3.100e+07–3.100e+07 | 1.00 | – | – | – | – | – "
                + "| – | – |"), md);
    }

    @Test
    void coldPingPongReadsItsOptionsAndRefusesBadOnes() {
        ColdPingPong.Options d = ColdPingPong.Options.parse(new String[0]);
        assertNotNull(d);
        assertEquals(20_000, d.rounds());
        assertEquals(List.of(8, 1024, 65536, 1048576), java.util.Arrays.stream(d.sizes()).boxed().toList());
        ColdPingPong.Options o = ColdPingPong.Options.parse(new String[] {"--rounds", "100", "--sizes", "8,64"});
        assertNotNull(o);
        assertEquals(100, o.rounds());
        assertNull(ColdPingPong.Options.parse(new String[] {"--rounds", "15"}));
        assertNull(ColdPingPong.Options.parse(new String[] {"--rounds"}));
        assertNull(ColdPingPong.Options.parse(new String[] {"--sizes", "8,x"}));
        assertNull(ColdPingPong.Options.parse(new String[] {"--warmup"}));
        assertEquals(1, d.blocks());
        assertEquals(3, ColdPingPong.Options.parse(new String[] {"--blocks", "3"}).blocks());
        assertNull(ColdPingPong.Options.parse(new String[] {"--blocks", "0"}));
        assertNull(ColdPingPong.Options.parse(new String[] {"--blocks", "-1"}));
        assertEquals(1.0, ColdPingPong.oneWayMicros(2.0, 1_000_000), 1e-12);
    }

    private static String print(ColdStartReport r, String contender, String base) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), List.<String[]>of(new String[] {contender, base}));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void reportsTheBestBlockBesideTheFirstAfterEverySizesFirstBlock(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("binding.pingpong.1.txt"),
                "coldpingpong 8 1.0 2.0 0.9\ncoldpingpong 1024 2.0 3 2\ncoldbest 8 0.5 3\ncoldbest 1024 1.5 3\n");
        Files.writeString(dir.resolve("fthp.pingpong.1.txt"),
                "coldpingpong 8 4.0 9 1\ncoldpingpong 1024 6.0 9 1\ncoldbest 8 0.4 3\ncoldbest 1024 1.5 3\n");
        ColdStartReport r = new ColdStartReport();
        r.addDirectory(dir);
        ColdStartReport.Row best8 = new ColdStartReport.Row("ping-pong byte[] 8 B, best of 3 blocks, one-way µs",
                ColdStartReport.BEST_ORDER + 8, false);
        assertEquals(List.of(4.0), r.ratios("fthp", "binding", PING_8));
        assertEquals(0.8, r.ratios("fthp", "binding", best8).get(0), 1e-12);
        String md = print(r, "fthp", "binding");
        assertTrue(md.contains("| ping-pong byte[] 8 B, best of 3 blocks, one-way µs | 0.500 |"), md);
        assertTrue(md.indexOf("1 KiB, one-way") < md.indexOf("8 B, best of 3"), md);
        assertTrue(md.indexOf("8 B, best of 3") < md.indexOf("1 KiB, best of 3"), md);
    }

    @Test
    void readsTheJitCpuOfThePingPongAsATimeRow(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("binding.pingpong.1.txt"), "coldpingpong 8 1.0 2.0 0.9\ncoldjit 10\n");
        Files.writeString(dir.resolve("fthp.pingpong.1.txt"), "coldpingpong 8 2.0 4 1\ncoldtenths 8 4 1\ncoldjit 250\n");
        ColdStartReport r = new ColdStartReport();
        r.addDirectory(dir);
        ColdStartReport.Row jit =
                new ColdStartReport.Row("ping-pong: CPU ms of rank 0's JIT compiler threads", 2_000_000_000L, false);
        assertEquals(List.of(25.0), r.ratios("fthp", "binding", jit));
        assertEquals(List.of(2.0), r.ratios("fthp", "binding", PING_8));
    }
}
