package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.it.programs.LogBound;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --log-limit} bounds every process's send log in a program that never makes a blocking send (sendRecv,
 * and iSend completed by waitAll): a wait that completes sends waits for acknowledgements while the log is over
 * the limit. Were only a blocking send to wait, the log of such a program would grow with the replicas' lag
 * without bound.
 */
class LogBoundTest {

    private static final Pattern PEAK = Pattern.compile("peak message log ([0-9.]+) (B|KiB|MiB|GiB) per process");

    /**
     * 32 KiB with pulls off goes through the native library; 128 KiB is pulled, its log entries in the senders'
     * pull memory.
     */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {32 << 10, 128 << 10})
    void sendRecvAndWaitAllKeepTheLogWithinItsLimit(int bytes) {
        long limit = 1 << 20;
        boolean pulls = bytes >= 64 << 10;
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "2", "--log-limit", "1M"),
                pulls ? java.util.Map.of() : java.util.Map.of("FTHP_PULL_BYTES", "0"), 2, Duration.ofSeconds(120),
                LogBound.class, "400", Integer.toString(bytes)).assertSuccess();
        assertTrue(r.stdout().contains("LogBound OK np=2"), r.stdout() + "\n--- stderr ---\n" + r.stderr());
        Matcher m = PEAK.matcher(r.stderr());
        assertTrue(m.find(), "no peak in the summary:\n" + r.stderr());
        double peak = Double.parseDouble(m.group(1)) * switch (m.group(2)) {
            case "KiB" -> 1 << 10;
            case "MiB" -> 1 << 20;
            case "GiB" -> 1 << 30;
            default -> 1;
        };
        // over the limit by at most what one call adds before it waits: a message to itself and one to the right
        // (with their headers), and the summary's rounding
        assertTrue(peak <= limit + 4 * bytes, "peak log " + m.group() + " above the limit of " + limit + " B:\n"
                + r.stderr());
        Matcher offered = P2pTest.OFFERED.matcher(r.stderr());
        assertEquals(pulls, offered.find() && Long.parseLong(offered.group(1)) > 0,
                "pulled only with pulls on:\n" + r.stderr());
    }
}
