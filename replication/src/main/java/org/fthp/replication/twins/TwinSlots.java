package org.fthp.replication.twins;

import java.util.BitSet;

/**
 * Hands out the tag slices of TwinChannel. A computational copy and its
 * replica run the same program, so they create and free the same
 * communicators in the same order and take the same slot for each without
 * exchanging a word. Slot 0 is COMM_WORLD's.
 */
public final class TwinSlots {

    private final BitSet taken = new BitSet();

    public TwinSlots() {
        taken.set(0);
    }

    /** The lowest free slot; throws when {@link TwinChannel#SLOTS} communicators are alive. */
    public int take() {
        int slot = taken.nextClearBit(1);
        if (slot >= TwinChannel.SLOTS) {
            throw new IllegalStateException("more than " + (TwinChannel.SLOTS - 1)
                    + " communicators alive at once in a replicated job");
        }
        taken.set(slot);
        return slot;
    }

    public void release(int slot) {
        if (slot > 0) {
            taken.clear(slot);
        }
    }
}
