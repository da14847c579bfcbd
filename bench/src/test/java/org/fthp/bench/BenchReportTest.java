package org.fthp.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

class BenchReportTest {

    @Test
    void medianOddEvenEmpty() {
        assertEquals(3.0, BenchReport.median(List.of(5.0, 1.0, 3.0)));
        assertEquals(2.5, BenchReport.median(List.of(4.0, 1.0, 2.0, 3.0)));
        assertEquals(7.0, BenchReport.median(List.of(7.0)));
        assertTrue(Double.isNaN(BenchReport.median(List.of())));
        assertTrue(Double.isNaN(BenchReport.median(null)));
    }

    @Test
    void medianIgnoresOutlier() {
        assertEquals(1.1, BenchReport.median(List.of(1.0, 1.1, 1.2, 1.05, 90.0)));
    }

    @Test
    void parsesResultLinesAndSkipsNoise() {
        BenchReport.Sample p = BenchReport.parseLine("pingpong 4096 2.3158 1.7687");
        assertEquals("pingpong", p.bench());
        assertEquals(4096, p.key());
        assertArrayEquals(new double[] {2.3158, 1.7687}, p.values());

        BenchReport.Sample a = BenchReport.parseLine("  allreduce 1024 7.3943 ");
        assertEquals("allreduce", a.bench());
        assertEquals(1024, a.key());
        assertArrayEquals(new double[] {7.3943}, a.values());

        assertNull(BenchReport.parseLine(""));
        assertNull(BenchReport.parseLine("WARNING: A restricted method in java.lang.foreign.Linker has been called"));
        assertNull(BenchReport.parseLine("pingpong 8 notanumber 1"));
        assertNull(BenchReport.parseLine("pingpong 8 0.2"));
        assertNull(BenchReport.parseLine("allreduce 1 2 3"));
        assertNull(BenchReport.parseLine("pingpong 8 0.2 0.04 0.19"));

        // with the fastest and slowest timed slice: the same values
        assertArrayEquals(new double[] {0.25, 0.032}, BenchReport.parseLine("pingpong 8 0.25 0.032 0.24 0.9").values());
        assertArrayEquals(new double[] {7.39}, BenchReport.parseLine("allreduce 1024 7.39 7.1 12.5").values());

        List<BenchReport.Sample> s = BenchReport.parse(List.of("noise", "pingpong 8 0.25 0.032", "allreduce 1 0.65", "x"));
        assertEquals(2, s.size());
    }

    @Test
    void mediansPerImplAndSizeAndMetric() {
        BenchReport r = new BenchReport();
        r.add("c", "pingpong", List.of("pingpong 8 0.20 0.040", "pingpong 64 0.30 0.2"));
        r.add("c", "pingpong", List.of("pingpong 8 0.30 0.027", "pingpong 64 0.25 0.25"));
        r.add("c", "pingpong", List.of("pingpong 8 0.25 0.032"));
        r.add("java", "pingpong", List.of("pingpong 8 0.50 0.016"));
        assertEquals(0.25, r.median("c", "pingpong", 8, 0), 1e-12);
        assertEquals(0.032, r.median("c", "pingpong", 8, 1), 1e-12);
        assertEquals(0.275, r.median("c", "pingpong", 64, 0), 1e-12);
        assertEquals(0.5, r.median("java", "pingpong", 8, 0), 1e-12);
        assertTrue(Double.isNaN(r.median("java", "pingpong", 64, 0)));
        assertTrue(Double.isNaN(r.median("jni", "pingpong", 8, 0)));
        assertEquals(3, r.reps("c", "pingpong", 8));
    }

    @Test
    void formatting() {
        assertEquals("8 B", BenchReport.formatBytes(8));
        assertEquals("4 KiB", BenchReport.formatBytes(4096));
        assertEquals("1 MiB", BenchReport.formatBytes(1 << 20));
        assertEquals("1536 B", BenchReport.formatBytes(1536));
        assertEquals("2.00", BenchReport.ratio(0.5, 0.25));
        assertEquals("–", BenchReport.ratio(Double.NaN, 1));
        assertEquals("–", BenchReport.ratio(1, 0));
        assertEquals("0.242", BenchReport.num(0.2423));
        assertEquals("19.60", BenchReport.num(19.5967));
        assertEquals("653.3", BenchReport.num(653.3049));
    }

    @Test
    void readsDirectoryAndPrintsTables(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("c.pingpong.1.txt"), "pingpong 8 0.2 0.04\npingpong 4194304 650 6.45\n");
        Files.writeString(dir.resolve("c.pingpong.2.txt"), "pingpong 8 0.3 0.0266\npingpong 4194304 660 6.35\n");
        Files.writeString(dir.resolve("java.pingpong.1.txt"), "WARNING: noise\npingpong 8 0.4 0.02\npingpong 4194304 700 6.0\n");
        Files.writeString(dir.resolve("java.pingpong.2.txt"), "");
        Files.writeString(dir.resolve("c.allreduce.1.txt"), "allreduce 1 0.65\nallreduce 1024 7.4\n");
        Files.writeString(dir.resolve("java.allreduce.1.txt"), "allreduce 1 1.3\nallreduce 1024 7.4\n");
        Files.writeString(dir.resolve("c.pingpong.1.err"), "pingpong 8 999 999\n"); // not a result file
        Files.writeString(dir.resolve("README"), "ignored");

        BenchReport r = new BenchReport();
        r.addDirectory(dir);
        assertEquals(0.25, r.median("c", "pingpong", 8, 0), 1e-12);

        String md = markdown(r);
        // the facade has repetition 1 only: its ratios are to C's repetition 1, not to C's median
        assertTrue(md.contains("| 8 B | 0.250 | 0.200–0.300 | 0.400 | 2.00 | 0.033 | 0.020 | 0.50 |"), md);
        assertTrue(md.contains("| 4 MiB | 655.0 | 650.0–660.0 | 700.0 | 1.08 |"), md);
        assertTrue(md.contains("| 1 | 8 B | 0.650 | 0.650–0.650 | 1.30 | 2.00 |"), md);
        assertTrue(md.contains("| 1024 | 8 KiB | 7.40 | 7.40–7.40 | 7.40 | 1.00 |"), md);
        assertTrue(!md.contains("†"), md);
        assertTrue(md.contains("java.pingpong: 1 of 2 runs produced no results"), md);
    }

    @Test
    void variantWithoutAllreduceGetsNoAllreduceTable(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("c.pingpong.1.txt"), "pingpong 8 0.2 0.04\n");
        Files.writeString(dir.resolve("c.allreduce.1.txt"), "allreduce 1 0.65\n");
        Files.writeString(dir.resolve("java-arrays.pingpong.1.txt"), "pingpong 8 0.4 0.02\n");
        BenchReport r = new BenchReport();
        r.addDirectory(dir);
        String md = markdown(r);
        assertTrue(md.contains("native C vs facade (byte[])"), md);
        assertTrue(md.contains("| 8 B | 0.200 | 0.200–0.200 | 0.400 | 2.00 |"), md);
        assertTrue(md.contains("Allreduce (double, SUM), all ranks: native C vs facade (double[])"), md); // facade always
        assertTrue(!md.contains("Allreduce (double, SUM), all ranks: native C vs facade (byte[])"), md);
    }

    @Test
    void marksAContenderThatBeatsNativeCsFastestRun(@TempDir Path dir) throws IOException {
        // C: one run in the fast state, two in the slow one; the facade ran in the fast state only
        Files.writeString(dir.resolve("c.pingpong.1.txt"), "pingpong 512 0.23 2.2 0.22 0.24\npingpong 8 0.15 0.05\n");
        Files.writeString(dir.resolve("c.pingpong.2.txt"), "pingpong 512 0.90 0.57 0.88 0.95\npingpong 8 0.15 0.05\n");
        Files.writeString(dir.resolve("c.pingpong.3.txt"), "pingpong 512 0.80 0.64 0.79 0.85\npingpong 8 0.15 0.05\n");
        Files.writeString(dir.resolve("java.pingpong.1.txt"), "pingpong 512 0.25 2.0\npingpong 8 0.30 0.027\n");
        BenchReport r = new BenchReport();
        r.addDirectory(dir);
        assertTrue(!r.suspect("java", "pingpong", 512)); // slower than C's fastest run: believable
        assertTrue(!r.suspect("java", "pingpong", 8));

        Files.writeString(dir.resolve("java.pingpong.2.txt"), "pingpong 512 0.20 2.6\n");
        Files.writeString(dir.resolve("java.pingpong.3.txt"), "pingpong 512 0.21 2.4\n");
        r = new BenchReport();
        r.addDirectory(dir);
        assertTrue(r.suspect("java", "pingpong", 512));
        String md = markdown(r);
        assertTrue(md.contains("| 512 B | 0.800 | 0.230–0.900 | 0.210 | 0.26 † |"), md);
        assertTrue(md.contains("Do not quote the ratio"), md);
    }

    @Test
    void takesRatiosWithinRepetitionsWhenTheMachineChangesState(@TempDir Path dir) throws IOException {
        // a machine that changes state: C fast in repetitions 1 and 3, slow in 2, 4, 5; the facade's byte[] runs fast in 1-3
        // (repetition 2 changed state between C and it), slow in 4 and 5. Medians of the columns: 0.220 against
        // 0.353, "0.62"; within repetitions 1.68, 0.49, 2.23, 1.37, 1.34
        double[] c = {0.102, 0.354, 0.099, 0.353, 0.358}, arrays = {0.1716, 0.1735, 0.2203, 0.4833, 0.4812};
        for (int rep = 1; rep <= 5; rep++) {
            Files.writeString(dir.resolve("c.pingpong." + rep + ".txt"), "pingpong 8 " + c[rep - 1] + " 0.05\n");
            Files.writeString(dir.resolve("java-arrays.pingpong." + rep + ".txt"), "pingpong 8 " + arrays[rep - 1] + " 0.04\n");
        }
        BenchReport r = new BenchReport();
        r.addDirectory(dir);
        assertEquals(0.4833 / 0.353, r.pairedRatio("java-arrays", "c", "pingpong", 8, 0), 1e-12);
        assertTrue(Double.isNaN(r.pairedRatio("jni", "c", "pingpong", 8, 0)));
        String md = markdown(r);
        assertTrue(md.contains("| 8 B | 0.353 | 0.099–0.358 | 0.220 | 1.37 |"), md);
        assertTrue(md.contains("the machine changed state during this run"), md);
    }

    @Test
    void repetitionsPairByTheirNumberNotTheOrderOfTheFiles(@TempDir Path dir) throws IOException {
        // "10" sorts before "2": the pairs must still be 1-1, 2-2, 10-10
        for (int rep : new int[] {1, 2, 10}) {
            Files.writeString(dir.resolve("c.allreduce." + rep + ".txt"), "allreduce 1 " + rep + "\n");
            Files.writeString(dir.resolve("java.allreduce." + rep + ".txt"), "allreduce 1 " + (2 * rep) + "\n");
        }
        BenchReport r = new BenchReport();
        r.addDirectory(dir);
        assertEquals(2.0, r.pairedRatio("java", "c", "allreduce", 1, 0), 1e-12);
    }

    @Test
    void aPulledPayloadMayBeatNativeCButTheBindingMayNot(@TempDir Path dir) throws IOException {
        // above the eager limit the facade's receiver copies the payload from the sender's memory, past the native library
        Files.writeString(dir.resolve("c.pingpong.1.txt"), "pingpong 4194304 360 11.6 355 367\n");
        Files.writeString(dir.resolve("java.pingpong.1.txt"), "pingpong 4194304 300 14.0\n");
        Files.writeString(dir.resolve("java-arrays.pingpong.1.txt"), "pingpong 4194304 290 14.5\n");
        Files.writeString(dir.resolve("jni.pingpong.1.txt"), "pingpong 4194304 300 14.0\n");
        BenchReport r = new BenchReport();
        r.addDirectory(dir);
        assertTrue(!r.suspect("java", "pingpong", 4194304));
        assertTrue(!r.suspect("java-arrays", "pingpong", 4194304));
        assertTrue(r.suspect("jni", "pingpong", 4194304));
        String md = markdown(r);
        assertTrue(md.contains("| 4 MiB | 360.0 | 360.0–360.0 | 300.0 | 0.83 |"), md);
        assertTrue(md.contains("do not go through the native library's transfer"), md);
    }

    @Test
    void comparesFthpWithTheBindingForTheSameBufferKind(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("c.pingpong.1.txt"), "pingpong 8 0.126 0.06\n");
        Files.writeString(dir.resolve("jni-arrays.pingpong.1.txt"), "pingpong 8 0.276 0.03\n");
        Files.writeString(dir.resolve("java-arrays.pingpong.1.txt"), "pingpong 8 0.557 0.014\n");
        BenchReport r = new BenchReport();
        r.addDirectory(dir);
        String md = markdown(r);
        assertTrue(md.contains("Ping-pong one-way, byte[]: FTHP-J vs Open MPI's Java binding"), md);
        assertTrue(md.contains("| 8 B | 0.126 | 0.276 | 0.557 | 2.19 | 4.42 | 2.02 |"), md);
        assertTrue(!md.contains("direct ByteBuffer: FTHP-J vs"), md); // no JNI run with a direct buffer
    }

    /** The report as it prints. */
    private static String markdown(BenchReport r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
