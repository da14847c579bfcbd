package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** What the multi-host plan refuses, before it resolves a host or starts anything. */
class MultiHostLaunchTest {

    private static LaunchOptions parse(String... args) throws LaunchException {
        return new LaunchOptionsParser().parse(List.of(args));
    }

    @Test
    void restartsAreRefusedOnSeveralHostsWithTheReason() throws LaunchException {
        LaunchOptions o = parse("-np", "2", "--replicas", "2", "--checkpoint-dir", "/tmp/ck", "--restart", "1",
                "--host", "h0:1,h1:1", "--", "-cp", "a.jar", "Main");
        LaunchException e = assertThrows(LaunchException.class, () -> MultiHostLaunch.plan(o, Map.of(), Path.of(".")));
        assertEquals(LaunchException.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("--restart is not supported on several hosts"), e.getMessage());
        assertTrue(e.getMessage().contains("a relaunch needs a new placement"), e.getMessage());
    }

    @Test
    void oneHostIsNotAMultiHostPlanSoRestartsStayAllowedThere() throws LaunchException {
        LaunchOptions o = parse("-np", "2", "--replicas", "2", "--checkpoint-dir", "/tmp/ck", "--restart", "1",
                "--host", "h0:4", "--", "-cp", "a.jar", "Main");
        assertNull(MultiHostLaunch.plan(o, Map.of(), Path.of(".")));
    }
}
