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
    void aRelaunchPlacesOnTheLiveHostsAndRefusesWhenTooFewAreLeft() throws LaunchException {
        LaunchOptions o = parse("-np", "2", "--checkpoint-dir", "/tmp/ck", "--restart", "1",
                "--host", "127.0.0.1:1,127.0.0.2:1,127.0.0.3:1", "--", "-cp", "a.jar", "Main");
        MultiHostLaunch plan = MultiHostLaunch.plan(o, Map.of(), Path.of("."));
        MultiHostLaunch relaunch = plan.without(java.util.Set.of(1), 2, 0, ReplicaPlacement.NEXT);
        assertEquals("127.0.0.1:1,127.0.0.3:1", relaunch.hostsOption());
        assertEquals("rank 0=127.0.0.1 slot=0\nrank 1=127.0.0.3 slot=0\n", relaunch.placement().rankfile());
        LaunchException few = assertThrows(LaunchException.class,
                () -> relaunch.without(java.util.Set.of(1), 2, 0, ReplicaPlacement.NEXT));
        assertEquals(LaunchException.RANK_LOST, few.exitCode());
        assertTrue(few.getMessage().contains("too few hosts left (1 live, 1 slots; lost 127.0.0.3)"), few.getMessage());
        LaunchException first = assertThrows(LaunchException.class,
                () -> plan.without(java.util.Set.of(0), 2, 0, ReplicaPlacement.NEXT));
        assertTrue(first.getMessage().contains("fthp-run's own host 127.0.0.1 is lost"), first.getMessage());
    }

    @Test
    void oneHostIsNotAMultiHostPlanSoRestartsStayAllowedThere() throws LaunchException {
        LaunchOptions o = parse("-np", "2", "--replicas", "2", "--checkpoint-dir", "/tmp/ck", "--restart", "1",
                "--host", "h0:4", "--", "-cp", "a.jar", "Main");
        assertNull(MultiHostLaunch.plan(o, Map.of(), Path.of(".")));
    }
}
