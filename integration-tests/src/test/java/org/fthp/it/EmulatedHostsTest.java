package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.fthp.it.hosts.EmulatedHosts;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The emulated-hosts harness itself: three hosts come up with their own
 * names, addresses, loopback and /tmp, nothing of theirs is in the root namespace,
 * a host can crash (every process on it killed) and be cut off and reconnected,
 * and closing them kills what runs on them and removes every name they made.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EmulatedHostsTest {

    private static final Duration SHORT = Duration.ofSeconds(30);

    @Test
    void hostsComeUpSeparateAndGoAwayCompletely() throws Exception {
        EmulatedHosts hosts = create(3);
        Process sleeper = null;
        try {
            for (int k = 0; k < 3; k++) {
                MpiJob.Result r = MpiJob.exec(hosts.onHost(k, List.of("sh", "-c",
                        "hostname; ip -4 -o addr show; getent hosts h0 h1 h2")), SHORT, Map.of());
                assertEquals(0, r.exitCode(), r.stderr());
                List<String> lines = r.lines();
                assertEquals(hosts.name(k), lines.get(0), "the host's own hostname");
                assertTrue(r.stdout().contains("lo    inet 127.0.0.1/8"), "loopback up:\n" + r.stdout());
                assertTrue(r.stdout().contains("eth0    inet " + hosts.address(k) + "/24"), r.stdout());
                for (int j = 0; j < 3; j++) {
                    String resolved = "(?m)^" + hosts.address(j).replace(".", "\\.") + "\\s+" + hosts.name(j) + "$";
                    assertTrue(java.util.regex.Pattern.compile(resolved).matcher(r.stdout()).find(),
                            hosts.name(j) + " resolves on " + hosts.name(k) + ":\n" + r.stdout());
                }
            }
            MpiJob.Result made = MpiJob.exec(hosts.onHost(1, List.of("touch", "/tmp/made-on-h1")), SHORT, Map.of());
            assertEquals(0, made.exitCode(), made.stderr());
            assertTrue(Files.exists(hosts.tmpOf(1).resolve("made-on-h1")), "h1's /tmp is its own");
            MpiJob.Result seen = MpiJob.exec(hosts.onHost(0, List.of("ls", "/tmp/made-on-h1")), SHORT, Map.of());
            assertTrue(seen.exitCode() != 0, "h0 does not see h1's /tmp");
            assertFalse(Files.exists(Path.of("/tmp/made-on-h1")), "nor does the machine");

            MpiJob.Result root = MpiJob.exec(List.of("ip", "-4", "-o", "addr", "show"), SHORT, Map.of());
            assertFalse(root.stdout().contains("10.213.0."), "no emulated address in the root namespace:\n"
                    + root.stdout());

            sleeper = new ProcessBuilder(hosts.onHost(1, List.of("sleep", "600")))
                    .redirectErrorStream(true).start();
            long pid = sleeper.pid();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!hosts.pidsOn(1).contains(pid) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(hosts.pidsOn(1).contains(pid), "the process started on h1 runs there");
            assertFalse(hosts.pidsOn(0).contains(pid), "and not on h0");
            hosts.crash(1);
            assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS), "a crash of h1 ends what runs there");
            assertEquals(List.of(), hosts.pidsOn(1));

            // h1 has nothing on port 9: refused at once while connected; unanswered while cut off
            List<String> connect = hosts.onHost(0, List.of("timeout", "5", "bash", "-c", "exec 3<>/dev/tcp/h1/9"));
            MpiJob.Result refused = MpiJob.exec(connect, SHORT, Map.of());
            assertTrue(refused.stderr().contains("Connection refused"), refused.stderr());
            hosts.disconnect(1);
            MpiJob.Result unanswered = MpiJob.exec(connect, SHORT, Map.of());
            assertEquals(124, unanswered.exitCode(), "no answer from a disconnected host: " + unanswered.stderr());
            hosts.reconnect(1);
            MpiJob.Result again = MpiJob.exec(connect, SHORT, Map.of());
            assertTrue(again.stderr().contains("Connection refused"), again.stderr());

            sleeper = new ProcessBuilder(hosts.onHost(2, List.of("sleep", "600")))
                    .redirectErrorStream(true).start();
            long onH2 = sleeper.pid();
            long started = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!hosts.pidsOn(2).contains(onH2) && System.nanoTime() < started) {
                Thread.sleep(50);
            }
            assertTrue(hosts.pidsOn(2).contains(onH2), "the process started on h2 runs there");
        } finally {
            hosts.close();
        }
        if (sleeper != null) {
            assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS), "closing the hosts ends what runs on them");
        }
        MpiJob.Result list = MpiJob.exec(List.of("ip", "netns", "list"), SHORT, Map.of());
        assertFalse(list.stdout().contains("fthp-" + hosts.id() + "-"), "namespaces left:\n" + list.stdout());
        for (int k = 0; k < 3; k++) {
            assertFalse(Files.exists(Path.of("/etc/netns", hosts.namespace(k))), "hosts file of h" + k + " left");
        }
        hosts.close();   // a second close does nothing
    }

    /** Hosts for a test, or the test is skipped saying why this machine cannot make them. */
    static EmulatedHosts create(int count) {
        try {
            return EmulatedHosts.create(MpiJob.home(), count);
        } catch (EmulatedHosts.Unavailable e) {
            Assumptions.abort("no emulated hosts on this machine: " + e.getMessage());
            throw new AssertionError("unreachable");
        }
    }
}
