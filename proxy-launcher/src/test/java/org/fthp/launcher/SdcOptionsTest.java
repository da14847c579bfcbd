package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fthp.launcher.inject.CorruptionSpec;
import org.junit.jupiter.api.Test;

class SdcOptionsTest {

    @Test
    void takesItsOptionsOutOfFthpRunsPartOnly() throws LaunchException {
        SdcOptions.Extracted e = SdcOptions.extract(List.of("-np", "2", "--sdc", "abort", "--sdc-interval", "0.5",
                "--corrupt", "1:rep:msg#40", "--", "Main", "--sdc", "x"));
        assertEquals(List.of("-np", "2", "--", "Main", "--sdc", "x"), e.rest());
        assertEquals("abort", e.options().mode());
        assertEquals(List.of(new CorruptionSpec(1, true, true, -1, 40)), e.options().corruptions());
        assertEquals("4:msg:#40", e.options().corruptions().get(0).forRanks(3));
        assertEquals(new CorruptionSpec(0, false, false, 2.5, 0), CorruptionSpec.parse("0@2.5"));
        assertEquals(new CorruptionSpec(2, false, true, -1, 9), CorruptionSpec.parse("2:msg#9"));
    }

    @Test
    void badValuesAreUsageErrorsInOneLine() {
        for (List<String> bad : List.of(List.of("--sdc", "maybe"), List.of("--sdc"), List.of("--sdc-interval", "0"),
                List.of("--corrupt", "0:cmp:state"), List.of("--corrupt", "0:disk@1"), List.of("--corrupt", "-1#3"),
                List.of("--corrupt", "0:state:cmp#3"), List.of("--corrupt", "0#0"))) {
            LaunchException e = assertThrows(LaunchException.class, () -> SdcOptions.extract(bad), bad.toString());
            assertEquals(LaunchException.USAGE, e.exitCode());
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void theRanksGetTheModeAndTheFlipsByNativeRank() throws LaunchException {
        LaunchOptions options = new LaunchOptionsParser().parse(List.of("-np", "3", "--replicas", "2", "--", "M"));
        SdcOptions sdc = SdcOptions.extract(List.of("--corrupt", "1:rep@3", "--corrupt", "2:msg#5", "--", "M"))
                .options();
        sdc.check(options);
        Map<String, String> env = new HashMap<>();
        sdc.addTo(env, options);
        assertEquals("on", env.get(SdcOptions.MODE_ENV));
        assertEquals("4:state:@3.000,2:msg:#5", env.get(SdcOptions.CORRUPT_ENV));
        SdcOptions missing = SdcOptions.extract(List.of("--corrupt", "2:rep#5", "--", "M")).options();
        assertThrows(LaunchException.class, () -> missing.check(options));
        SdcOptions noRank = SdcOptions.extract(List.of("--corrupt", "3#5", "--", "M")).options();
        assertThrows(LaunchException.class, () -> noRank.check(options));
    }
}
