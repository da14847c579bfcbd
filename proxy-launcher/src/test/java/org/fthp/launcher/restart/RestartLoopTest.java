package org.fthp.launcher.restart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fthp-run's restart loop for real: fthp-run as its own process, real coordinator processes, the proxy library
 * preloaded into a real mpirun, ranks that are {@link RestartProbe} (a JVM that registers with its coordinator and
 * is SIGKILLed; no MPI, the engine-level restart is tested elsewhere). The coordinators and the ranks run from a
 * jar whose manifest names this module's test class path, standing in for the runtime jar.
 */
@Timeout(180)
class RestartLoopTest {

    @TempDir
    Path dir;

    private Path runtimeJar;
    private Path abi;

    /** Output and exit code of one fthp-run. */
    record Run(int code, String out, String err) {}

    @BeforeEach
    void pathingJar() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        List<String> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(Path.of(entry).toAbsolutePath().toUri().toString());
        }
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        runtimeJar = dir.resolve("runtime.jar");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(runtimeJar), manifest)) {
            // the manifest is all it holds
        }
        abi = Files.writeString(dir.resolve("abi.properties"), "# not used: the probe ranks never load MPI\n");
    }

    private Run fthpRun(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-cp", System.getProperty("java.class.path"),
                "org.fthp.launcher.FthpRun"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("FTHP_MPI_JAR", runtimeJar.toString());
        pb.environment().put("FTHP_PROXY_LIB", Path.of("target/libfthp_proxy.so").toAbsolutePath().toString());
        pb.environment().put("FTHP_EMPI_ABI", abi.toString());
        pb.environment().put("FTHP_JAVA", javaBin());
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        try {
            if (!p.waitFor(150, TimeUnit.SECONDS)) {
                throw new AssertionError("fthp-run did not end; stderr so far:\n" + Files.readString(err));
            }
        } finally {
            // fthp-run stops what it started on SIGTERM (its shutdown hook); only then anything left by pid
            if (p.isAlive()) {
                List<ProcessHandle> tree = p.descendants().toList();
                p.destroy();
                p.waitFor(10, TimeUnit.SECONDS);
                tree.forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private String probe() {
        return System.getProperty("java.class.path");
    }

    @Test
    void aRankThatLosesEveryCopyRestartsTheJobFromTheLastCommittedEpochWithAnotherDegree() throws Exception {
        Path events = dir.resolve("events.jsonl");
        Run run = fthpRun("-np", "2", "--restart", "2", "--restart-replicas", "1", "--events", events.toString(),
                "--", "-cp", probe(), RestartProbe.class.getName(), "checkpoint", "1");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("incarnation 1 rank 0 CMP of 3 processes: epoch 1 value 1000"), run.out());
        assertTrue(run.out().contains("incarnation 1 rank 0 REP of 3 processes: epoch 1 value 1000"), run.out());
        assertTrue(run.out().contains("incarnation 1 rank 1 CMP of 3 processes: epoch 1 value 1001"), run.out());
        List<String> notices = run.err().lines().filter(l -> l.startsWith("fthp-run: restart")).toList();
        assertEquals(List.of("fthp-run: restart 1 of 2: rank 1 lost every copy; relaunching 3 processes (2 ranks,"
                + " 1 replicas) from checkpoint epoch 1"), notices, run.err());
        assertTrue(run.err().contains("1 checkpoint (mean cost 0.002 s"), run.err());
        assertTrue(run.err().contains("1 restart, "), run.err());
        String log = Files.readString(events);
        assertTrue(log.contains("\"event\":\"checkpoint-committed\",\"epoch\":1"), log);
        assertTrue(log.contains("\"event\":\"job-restarted\",\"restart\":1,\"epoch\":1,\"logicalRank\":1"), log);
    }

    @Test
    void withoutACheckpointTheRelaunchStartsFromTheBeginningAndSaysSo() throws Exception {
        Run run = fthpRun("-np", "2", "--restart", "1", "--", "-cp", probe(), RestartProbe.class.getName(),
                "plain", "0");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.err().contains("fthp-run: restart 1 of 1: rank 0 lost every copy; relaunching 2 processes"
                + " (2 ranks, 0 replicas) from the beginning (no checkpoint was committed)"), run.err());
        assertTrue(run.out().contains("incarnation 1 rank 0 CMP of 2 processes: fresh"), run.out());
        assertTrue(run.out().contains("incarnation 1 rank 1 CMP of 2 processes: fresh"), run.out());
    }

    @Test
    void withNoRestartLeftTheJobEndsWithExit4NamingTheRank() throws Exception {
        Run run = fthpRun("-np", "2", "--checkpoint-interval", "60", "--", "-cp", probe(),
                RestartProbe.class.getName(), "checkpoint", "1");
        assertEquals(4, run.code(), run.err());
        assertTrue(run.err().contains("job aborted by the coordinators: rank=1"), run.err());
        assertTrue(!run.err().contains("fthp-run: restart"), run.err());
    }

    @Test
    void anUnwritableCheckpointDirectoryIsAClearErrorAtStart() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Run run = fthpRun("-np", "2", "--checkpoint-dir", file.resolve("sub").toString(), "--", "-cp", probe(),
                RestartProbe.class.getName(), "plain", "0");
        assertEquals(3, run.code(), run.err());
        assertTrue(run.err().contains("--checkpoint-dir") && run.err().contains("cannot be created"), run.err());
    }
}
