package org.fthp.coordinator.spares;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.netty.channel.embedded.EmbeddedChannel;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;
import org.junit.jupiter.api.Test;

/** One node's spares: the waiting ones, and one a rollback named until it has become the rank's copy. */
class LocalSparesTest {

    /** 2 ranks, spare native 2 takes rank 1. */
    private static final Message.Rollback TAKE_RANK_1 = new Message.Rollback(1, 4, 6, 1, 1, 2, List.of(0, 2),
            List.of(-1, -1), 1);

    @Test
    void aNamedSpareIsToldAndItsDeathBeforeItBecameTheRanksCopyIsThatRanksFailure() {
        LocalSpares spares = new LocalSpares();
        EmbeddedChannel c = new EmbeddedChannel();
        spares.registered(c, 2, 4242);
        assertTrue(spares.assign(2, TAKE_RANK_1));
        assertInstanceOf(Message.Rollback.class, c.readOutbound());
        assertFalse(spares.isSpare(c));
        assertNull(spares.gone(c), "no longer a waiting spare: its loss is no SPARE_GONE");
        assertEquals(new FailedProcess(4242, 2, 1, Role.CMP, "connection-lost"),
                spares.diedTaking(c, "connection-lost"));
        assertNull(spares.diedTaking(c, "connection-lost"), "reported once");
    }

    @Test
    void aNamedSpareThatEndsItsSpareConnectionNormallyIsNoFailure() {
        LocalSpares spares = new LocalSpares();
        EmbeddedChannel c = new EmbeddedChannel();
        spares.registered(c, 2, 4242);
        spares.assign(2, TAKE_RANK_1);
        assertTrue(spares.took(c));
        assertNull(spares.diedTaking(c, "connection-lost"));
    }

    @Test
    void aWaitingSparesLossIsNobodysFailure() {
        LocalSpares spares = new LocalSpares();
        EmbeddedChannel c = new EmbeddedChannel();
        spares.registered(c, 3, 4343);
        assertFalse(spares.assign(2, TAKE_RANK_1), "not the one named");
        assertEquals(3, spares.gone(c));
        assertNull(spares.diedTaking(c, "connection-lost"));
        assertFalse(spares.took(c));
    }
}
