package org.fthp.coordinator.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fthp.coordinator.checkpoint.PieceBytes;
import org.fthp.coordinator.checkpoint.PieceDirectory;

/**
 * A process's shared-memory files for its pieces, each mapped once and written again and again: a file's pages
 * are allocated (and zeroed by the kernel, a page fault each) when first written, which costs several times the
 * copy itself, so a checkpoint that writes into pages it wrote before runs at the speed of memory.
 *
 * <p>A slot is handed to the coordinator by name ({@link PieceDirectory#handOff}); the coordinator gives it back
 * by renaming it ({@link PieceDirectory#free}) once it dropped the piece in it (a newer epoch committed). A put
 * takes a slot given back if there is one of the right size, else makes one; so a process has as many slots as
 * its coordinator holds pieces of it, plus the one it writes. Used by one thread at a time (a snapshot).
 */
final class PieceSlots {
    /** One file, mapped read-write in this process for as long as it lives. */
    record Slot(PieceBytes bytes, Path handOff, Path free) {
    }

    /** Slot numbers are unique in the JVM: tests run several processes' clients in one. */
    private static final java.util.concurrent.atomic.AtomicInteger NUMBERS = new java.util.concurrent.atomic.AtomicInteger();

    private final PieceDirectory directory;
    private final List<Slot> slots = new ArrayList<>();

    PieceSlots(PieceDirectory directory) {
        this.directory = directory;
    }

    /** A slot of exactly {@code size} bytes, renamed to its hand-off name, for the caller to fill and hand over. */
    synchronized Slot take(long size) throws IOException {
        for (java.util.Iterator<Slot> it = slots.iterator(); it.hasNext(); ) {
            Slot s = it.next();
            if (!Files.exists(s.free())) {
                continue;
            }
            if (s.bytes().size() == size) {
                Files.move(s.free(), s.handOff(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                return s;
            }
            // the state changed size: this slot's mapping no longer fits
            s.bytes().release();
            Files.deleteIfExists(s.free());
            it.remove();
        }
        int number = NUMBERS.incrementAndGet();
        Path handOff = directory.handOff(number);
        Slot s = new Slot(PieceBytes.create(handOff, size, false), handOff, directory.free(number));
        slots.add(s);
        return s;
    }

    /** A put that did not hand the slot over: it is free again at once. */
    synchronized void giveUp(Slot slot) {
        try {
            Files.move(slot.handOff(), slot.free(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // gone (the coordinator took it after all, or swept it): forget it
            slot.bytes().release();
            slots.remove(slot);
        }
    }

    /** Unmaps every slot and deletes those given back (the coordinator deletes the rest when it drops them). */
    synchronized void close() {
        for (Slot s : slots) {
            s.bytes().release();
            try {
                Files.deleteIfExists(s.free());
            } catch (IOException e) {
                // swept when the coordinator closes
            }
        }
        slots.clear();
    }
}
