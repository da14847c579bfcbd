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
    /** Slots whose tags the native library accepts (tags.TagBound), at most {@link TwinChannel#SLOTS}. */
    private final int capacity;

    public TwinSlots() {
        this(TwinChannel.SLOTS);
    }

    public TwinSlots(int capacity) {
        if (capacity < 1 || capacity > TwinChannel.SLOTS) {
            throw new IllegalArgumentException("twin slots " + capacity + " out of 1.." + TwinChannel.SLOTS);
        }
        this.capacity = capacity;
        taken.set(0);
    }

    /** The lowest free slot; throws when {@code capacity} communicators are alive. */
    public int take() {
        int slot = taken.nextClearBit(1);
        if (slot >= capacity) {
            throw new IllegalStateException("more than " + (capacity - 1)
                    + " communicators alive at once in a replicated job (the native MPI's tag bound allows no more)");
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
