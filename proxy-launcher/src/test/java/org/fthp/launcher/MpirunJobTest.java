package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class MpirunJobTest {

    /** The proxy must reach mpirun, not setpriv: setpriv's process would take it out of the environment. */
    @Test
    void thePreloadedProxyIsGivenToMpirunNotToSetpriv() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && Files.isExecutable(Path.of("/usr/bin/env")));
        Map<String, String> env = new HashMap<>(Map.of("LD_PRELOAD", "/x/libfthp_proxy.so", "OTHER", "1"));
        List<String> command = MpirunJob.withParentDeathSignal(List.of("mpirun", "-np", "2"), env);
        assertEquals(List.of("/usr/bin/setpriv", "--pdeathsig", "TERM", "/usr/bin/env",
                "LD_PRELOAD=/x/libfthp_proxy.so", "mpirun", "-np", "2"), command);
        assertFalse(env.containsKey("LD_PRELOAD"));
        assertEquals("1", env.get("OTHER"));
    }

    @Test
    void withoutAPreloadMpirunFollowsSetprivDirectly() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")));
        List<String> command = MpirunJob.withParentDeathSignal(List.of("mpirun"), new HashMap<>());
        assertEquals(List.of("/usr/bin/setpriv", "--pdeathsig", "TERM", "mpirun"), command);
    }
}
