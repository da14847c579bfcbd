package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.fthp.it.hosts.EmulatedHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The way issue 21 plans to start one node coordinator per host, tried with
 * today's CoordinatorMain: each started on its emulated host through the
 * remote agent Open MPI uses, the job secret written to the agent's stdin
 * (never on a command line), bound to the host's own address. Both come up,
 * the secret is in no process's command line on either host, and a peer on
 * h0 that does not authenticate is dropped by h1's coordinator.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RemoteCoordinatorTest {

    private static final String MAIN = "org.fthp.coordinator.node.CoordinatorMain";
    private static final String READY = "FTHP_COORDINATOR_READY";
    private static final int PORT = 7100;
    private static final Duration SHORT = Duration.ofSeconds(30);

    @Test
    void coordinatorsStartThroughTheAgentWithTheSecretOnStdinAndRefuseAStranger() throws Exception {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String secret = HexFormat.of().formatHex(key);
        List<Process> coordinators = new ArrayList<>();
        try (EmulatedHosts hosts = EmulatedHostsTest.create(2)) {
            Path logs = Files.createDirectories(Path.of("target", "coordinators-" + hosts.id()).toAbsolutePath());
            // every host is a fresh network namespace: any port is free there
            String nodes = hosts.address(0) + ":" + PORT + "," + hosts.address(1) + ":" + (PORT + 1);
            List<CompletableFuture<String>> ready = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
                String jar = MpiJob.home().resolve("replication/target/fthp-mpi.jar").toString();
                // what the agent's remote shell runs: the secret from stdin into the coordinator's environment only
                String remote = "read -r FTHP_JOB_SECRET && export FTHP_JOB_SECRET && exec " + java
                        + " --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                        + " -Dio.netty.noUnsafe=true -cp " + jar + " " + MAIN + " --node-id " + k + " --nodes " + nodes
                        + " --group-size 1 --ranks 2 --replicas 0 --bind " + hosts.address(k);
                Process p = new ProcessBuilder(hosts.agent().toString(), hosts.name(k), remote)
                        .redirectError(logs.resolve("coordinator-" + k + ".err").toFile())
                        .start();
                coordinators.add(p);
                OutputStream stdin = p.getOutputStream();
                stdin.write((secret + "\n").getBytes(StandardCharsets.US_ASCII));
                stdin.flush();   // left open: the coordinator's lifeline in the plan
                ready.add(readyLine(p));
            }
            for (int k = 0; k < 2; k++) {
                String line = ready.get(k).get(60, TimeUnit.SECONDS);
                assertNotNull(line, "coordinator " + k + " ended before it was ready");
                assertTrue(line.contains("node=" + k + " address=" + hosts.address(k) + ":" + (PORT + k)), line);
                assertTrue(line.contains(" reports=/tmp/"), "its report pipe is in its host's /tmp: " + line);
            }
            for (int k = 0; k < 2; k++) {
                for (long pid : hosts.pidsOn(k)) {
                    Path cmdline = Path.of("/proc", Long.toString(pid), "cmdline");
                    if (Files.exists(cmdline)) {
                        String words = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8);
                        assertFalse(words.contains(secret), "the secret is on the command line of " + pid);
                    }
                }
            }

            // a stranger on h0 speaks without authenticating; h1's coordinator drops it (cat sees the end)
            MpiJob.Result stranger = MpiJob.exec(hosts.onHost(0, List.of("timeout", "20", "bash", "-c",
                    "exec 3<>/dev/tcp/" + hosts.address(1) + "/" + (PORT + 1)
                            + " && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 >/dev/null && echo dropped")),
                    SHORT, Map.of());
            assertEquals(0, stranger.exitCode(), "h1's coordinator must close the connection: " + stranger.stderr());
            assertTrue(stranger.stdout().contains("dropped"), stranger.stdout());
            String h1Log = Files.readString(logs.resolve("coordinator-1.err"));
            assertTrue(h1Log.contains("closing unauthenticated connection from /" + hosts.address(0)), h1Log);
        } finally {
            for (Process p : coordinators) {
                p.destroyForcibly();
            }
        }
    }

    /** The process's READY line, or null if its stdout ends first. */
    private static CompletableFuture<String> readyLine(Process p) {
        return CompletableFuture.supplyAsync(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith(READY)) {
                        return line;
                    }
                }
                return null;
            } catch (java.io.IOException e) {
                return null;
            }
        });
    }
}
