package org.fthp.replication.ops;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.BooleanSupplier;

/**
 * The buffer a program attached for buffered-mode sends (MPI_Buffer_attach),
 * kept as an account rather than as memory: a buffered send's data is staged
 * off-heap like any send's (and logged like any send's), so the attached
 * array only bounds how much may be outstanding. Each buffered message is
 * charged its bytes plus the per-message overhead until its underlying send
 * is done, then the charge is released, as MPI releases buffer space once a
 * buffered message has left.
 *
 * <p>Not thread-safe: used under the engine's gate.
 */
public final class BufferAccount {

    private record Charge(long bytes, BooleanSupplier done) {}

    private final long capacity;
    private final ArrayDeque<Charge> charges = new ArrayDeque<>();
    private long used;

    public BufferAccount(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("negative capacity " + capacity);
        }
        this.capacity = capacity;
    }

    public long capacity() {
        return capacity;
    }

    /** Bytes charged to messages whose sends were not yet seen done. */
    public long used() {
        return used;
    }

    /** Releases the charges of messages now done; then whether {@code bytes} more fit. */
    public boolean hasRoomFor(long bytes) {
        releaseDone();
        return bytes <= capacity - used;
    }

    /**
     * Charges {@code bytes} until {@code done} says the message's send is
     * complete. The caller asked {@link #hasRoomFor} first (a replica
     * follows its twin's answer, so its own account may briefly run over).
     */
    public void charge(long bytes, BooleanSupplier done) {
        used += bytes;
        charges.add(new Charge(bytes, done));
    }

    /** Releases the charges of messages now done; true when none is outstanding. */
    public boolean drained() {
        releaseDone();
        return charges.isEmpty();
    }

    private void releaseDone() {
        for (Iterator<Charge> it = charges.iterator(); it.hasNext(); ) {
            Charge c = it.next();
            if (c.done().getAsBoolean()) {
                used -= c.bytes();
                it.remove();
            }
        }
    }
}
