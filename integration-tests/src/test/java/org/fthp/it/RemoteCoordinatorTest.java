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
 * One node coordinator per host, started as fthp-run starts them on several
 * hosts: through the remote agent Open MPI uses, with scripts/fthp-coordinator.sh
 * reading the job secret from the agent's stdin (never on a command line),
 * each bound to an ephemeral port of its host's address and sent the node
 * list on stdin once both are ready. Both come up with their report pipes
 * where the orted launch agent writes, the secret is in no process's command
 * line on either host, a peer on h0 that does not authenticate is dropped by
 * h1's coordinator, and closing stdin ends both.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RemoteCoordinatorTest {

    private static final String MAIN = "org.fthp.coordinator.node.CoordinatorMain";
    private static final String READY = "FTHP_COORDINATOR_READY";
    private static final Duration SHORT = Duration.ofSeconds(30);

    @Test
    void coordinatorsStartThroughTheAgentWithTheSecretOnStdinAndRefuseAStranger() throws Exception {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String secret = HexFormat.of().formatHex(key);
        List<Process> coordinators = new ArrayList<>();
        try (EmulatedHosts hosts = EmulatedHostsTest.create(2)) {
            Path logs = Files.createDirectories(Path.of("target", "coordinators-" + hosts.id()).toAbsolutePath());
            List<CompletableFuture<String>> ready = new ArrayList<>();
            List<OutputStream> controls = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
                String jar = MpiJob.home().resolve("replication/target/fthp-mpi.jar").toString();
                // what fthp-run runs through the agent: the wrapper reads the secret from stdin into the
                // coordinator's environment only; the node binds an ephemeral port and waits for the node list
                String remote = "exec " + MpiJob.home().resolve("scripts/fthp-coordinator.sh") + " " + java
                        + " --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                        + " -Dio.netty.noUnsafe=true -cp " + jar + " " + MAIN + " --node-id " + k
                        + " --nodes stdin --node-count 2 --group-size 1 --ranks 2 --replicas 0 --bind "
                        + hosts.address(k) + " --report-dir /tmp/fthp-job-" + hosts.id();
                Process p = new ProcessBuilder(hosts.agent().toString(), hosts.name(k), remote)
                        .redirectError(logs.resolve("coordinator-" + k + ".err").toFile())
                        .start();
                coordinators.add(p);
                OutputStream stdin = p.getOutputStream();
                stdin.write((secret + "\n").getBytes(StandardCharsets.US_ASCII));
                stdin.flush();   // left open: the coordinator's control channel and lifeline
                controls.add(stdin);
                ready.add(readyLine(p));
            }
            List<String> listening = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                String line = ready.get(k).get(60, TimeUnit.SECONDS);
                assertNotNull(line, "coordinator " + k + " ended before it was ready");
                assertTrue(line.contains("node=" + k + " address=" + hosts.address(k) + ":"), line);
                assertTrue(line.contains(" reports=/tmp/fthp-job-" + hosts.id() + "/proxy-report.h" + k),
                        "its report pipe is in its host's /tmp, named for the launch agent: " + line);
                listening.add(line.replaceAll(".* address=(\\S+).*", "$1"));
                assertTrue(Files.exists(hosts.tmpOf(k).resolve("fthp-job-" + hosts.id() + "/proxy-report.h" + k)));
            }
            for (OutputStream control : controls) {
                control.write(("nodes " + String.join(",", listening) + "\n").getBytes(StandardCharsets.US_ASCII));
                control.flush();
            }
            int port1 = Integer.parseInt(listening.get(1).substring(listening.get(1).lastIndexOf(':') + 1));
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
                    "exec 3<>/dev/tcp/" + hosts.address(1) + "/" + port1
                            + " && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 >/dev/null && echo dropped")),
                    SHORT, Map.of());
            assertEquals(0, stranger.exitCode(), "h1's coordinator must close the connection: " + stranger.stderr());
            assertTrue(stranger.stdout().contains("dropped"), stranger.stdout());
            String h1Log = Files.readString(logs.resolve("coordinator-1.err"));
            assertTrue(h1Log.contains("closing unauthenticated connection from /" + hosts.address(0)), h1Log);
            assertFalse(h1Log.contains("could not reach its parent"), "node 1 reached the primary on h0: " + h1Log);

            // the lifeline: the launcher's end of stdin closes (an agent like ssh does not kill the remote side)
            for (OutputStream control : controls) {
                control.close();
            }
            for (int k = 0; k < 2; k++) {
                assertTrue(coordinators.get(k).waitFor(20, TimeUnit.SECONDS), "coordinator " + k + " outlived stdin");
            }
            assertFalse(Files.exists(hosts.tmpOf(1).resolve("fthp-job-" + hosts.id() + "/proxy-report.h1")),
                    "the pipe goes with its coordinator");
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
