package org.fthp.replication.repair;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

class HeldCommsTest {

    /** A peer's message as the agreement's receive gives it: the slot's full size, zeros past the message. */
    private static ByteBuffer received(byte[] message) {
        byte[] slot = new byte[HeldComms.AGREEMENT_BYTES];
        System.arraycopy(message, 0, slot, 0, message.length);
        return ByteBuffer.wrap(slot).order(ByteOrder.nativeOrder());
    }

    @Test
    void whoHoldsWhatComesWithTheAgreement() {
        byte[] mine = HeldComms.agreementMessage(3, new int[] {17, 40});
        HeldComms held = HeldComms.fromAgreement(0, mine, new int[] {2, 5}, new ByteBuffer[] {
                received(HeldComms.agreementMessage(3, new int[] {40})),
                received(HeldComms.agreementMessage(3, new int[0]))});
        assertNotNull(held);
        assertTrue(held.holds(0, 17));
        assertTrue(held.holds(0, 40));
        assertTrue(held.holds(2, 40));
        assertFalse(held.holds(2, 17));
        assertFalse(held.holds(5, 40));
    }

    @Test
    void oneSurvivorWithTooManyIdsSendsEveryoneToTheirOwnExchange() {
        int[] many = new int[HeldComms.AGREEMENT_BYTES];
        for (int i = 0; i < many.length; i++) {
            many[i] = 100 + i;
        }
        byte[] tooMany = HeldComms.agreementMessage(1, many);
        assertTrue(tooMany.length <= HeldComms.AGREEMENT_BYTES, "a message that does not fit would be cut off");
        byte[] few = HeldComms.agreementMessage(1, new int[] {7});
        // seen from the survivor with too many, and from another: both give up on the agreement's ids
        assertNull(HeldComms.fromAgreement(0, tooMany, new int[] {1}, new ByteBuffer[] {received(few)}));
        assertNull(HeldComms.fromAgreement(1, few, new int[] {0}, new ByteBuffer[] {received(tooMany)}));
    }

    @Test
    void theMostIdsThatFitStillFit() {
        int fit = (HeldComms.AGREEMENT_BYTES - Long.BYTES - Integer.BYTES) / Integer.BYTES;
        int[] ids = new int[fit];
        for (int i = 0; i < fit; i++) {
            ids[i] = i + 16;
        }
        byte[] m = HeldComms.agreementMessage(2, ids);
        assertTrue(m.length <= HeldComms.AGREEMENT_BYTES);
        HeldComms held = HeldComms.fromAgreement(4, m, new int[0], new ByteBuffer[0]);
        assertNotNull(held);
        assertTrue(held.holds(4, 16 + fit - 1));
    }
}
