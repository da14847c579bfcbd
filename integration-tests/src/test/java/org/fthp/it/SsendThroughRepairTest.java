package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;

import org.fthp.it.programs.SsendSync;
import org.junit.jupiter.api.Test;

/**
 * A synchronous send stays synchronous through a repair: it completes only once a live copy of its
 * destination has matched it. SsendSync's receivers probe for the message their sender sends right after its
 * sSend; seeing it before receiving the sSend's message is a violation, as when a repair takes the send in
 * flight for done.
 */
class SsendThroughRepairTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** The receiver's computational copy dies while its sender waits in sSend; its replica takes over. */
    @Test
    void anSsendInFlightWaitsForThePromotedReceiver() {
        assertEveryRankSawTheGuarantee(MpiJob.runWith(
                List.of("--replicas", "4", "--kill", "1:cmp#12", "--kill", "2:rep#20"), 4, TIMEOUT,
                SsendSync.class), 4);
    }

    /**
     * The same with a large message, whose payload each copy of the receiver pulls from its sender's memory:
     * the send abandoned by the repair still waits until a live copy matched it.
     */
    @Test
    void aLargePulledSsendInFlightWaitsForThePromotedReceiver() {
        MpiJob.Result r = MpiJob.runWith(List.of("--replicas", "4", "--kill", "1:cmp#12", "--kill", "2:rep#20"), 4,
                TIMEOUT, SsendSync.class, "4", "100", Integer.toString(32 << 10));
        assertEveryRankSawTheGuarantee(r, 4);
        Matcher m = P2pTest.OFFERED.matcher(r.stderr());
        assertTrue(m.find() && Long.parseLong(m.group(1)) > 0, "the sSends' payloads were pulled:\n" + r.stderr());
    }

    /**
     * A replica whose destination has no replica sends nothing: its sSend waits until the destination has matched
     * its twin's message, so when the twin dies the promoted replica has not run ahead of the receiver.
     */
    @Test
    void aReplicaDoesNotRunAheadOfAnUnreplicatedReceiver() {
        assertEveryRankSawTheGuarantee(MpiJob.runWith(List.of("--replicas", "1", "--kill", "0:cmp#3"), 2, TIMEOUT,
                SsendSync.class), 2);
    }

    private static void assertEveryRankSawTheGuarantee(MpiJob.Result r, int np) {
        r.assertSuccess();
        assertFalse(r.stdout().contains("VIOLATION"), r.stdout());
        for (int rank = 0; rank < np; rank++) {
            assertEquals(1, r.lines().stream().filter(("SsendSync OK rank " + rank)::equals).count(), r.stdout());
        }
    }
}
