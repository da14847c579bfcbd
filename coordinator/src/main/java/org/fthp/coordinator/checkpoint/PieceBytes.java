package org.fthp.coordinator.checkpoint;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bytes of one piece, where a coordinator or a process keeps them: a file in shared memory mapped into this
 * process (what every coordinator holds, and what a process hands its own node's coordinator without a copy), or a
 * plain buffer (a process's piece that came over a socket).
 *
 * <p>Reference-counted, because a held piece may be dropped (a newer epoch committed) while another thread still
 * writes it to disk, copies it to the partner or hands it to a process: whoever uses it {@link #retain()}s it and
 * {@link #release()}s it after; the last release unmaps the file and deletes it, which is what gives the memory back
 * (a mapping left to the garbage collector would keep a dropped piece's pages for as long as it pleases).
 */
public final class PieceBytes {
    private final ByteBuffer bytes;
    private final Arena arena;
    private final Path file;
    private final boolean deleteFile;
    /** Where the file goes at the last release instead of being deleted (a process's slot, given back); or null. */
    private volatile Path giveBackAs;
    private volatile long owner;
    private final AtomicInteger references = new AtomicInteger(1);

    private PieceBytes(ByteBuffer bytes, Arena arena, Path file, boolean deleteFile) {
        this.bytes = bytes;
        this.arena = arena;
        this.file = file;
        this.deleteFile = deleteFile;
    }

    /**
     * At the last release, rename the file to {@code name} rather than delete it, if process {@code ownerPid} (on
     * this host) still lives: the process that wrote it keeps it mapped and writes its next piece into the same
     * pages, which then cost no page faults.
     */
    public PieceBytes giveBackAs(Path name, long ownerPid) {
        this.giveBackAs = name;
        this.owner = ownerPid;
        return this;
    }

    /** A buffer's bytes 0..limit (not copied); releasing it frees nothing. */
    public static PieceBytes onHeap(ByteBuffer bytes) {
        return new PieceBytes(bytes.duplicate().position(0), null, null, false);
    }

    /**
     * A new file of {@code size} bytes (replacing any of that name), mapped read-write: the caller fills it. The
     * last release deletes it when {@code owned} (a process that hands the file to its coordinator does not own it).
     */
    public static PieceBytes create(Path file, long size, boolean owned) throws IOException {
        checkSize(size);
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            // the file is sparse: its pages come when written, so only what is filled counts against memory
            MemorySegment segment = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            return new PieceBytes(segment.asByteBuffer(), arena, file, owned);
        } catch (IOException | RuntimeException e) {
            arena.close();
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * An existing file, mapped read-only (its size is the piece's); the last release deletes it only when
     * {@code owned} (a coordinator's own file; a process only reads the file its coordinator owns).
     */
    public static PieceBytes open(Path file, boolean owned) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            checkSize(size);
            MemorySegment segment = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return new PieceBytes(segment.asByteBuffer(), arena, file, owned);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static void checkSize(long size) {
        if (size < 0 || size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a piece of " + size + " bytes does not fit one mapping");
        }
    }

    /** A new view of all the bytes (position 0, limit the size); valid until the last release. */
    public ByteBuffer view() {
        return bytes.duplicate().clear();
    }

    public int size() {
        return bytes.capacity();
    }

    /** The shared-memory file another process on this host can map, if the bytes are in one. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** One more user; returns this. Fails once the bytes are gone. */
    public PieceBytes retain() {
        int n;
        do {
            n = references.get();
            if (n <= 0) {
                throw new IllegalStateException("piece bytes already released");
            }
        } while (!references.compareAndSet(n, n + 1));
        return this;
    }

    /** One user less; the last unmaps (and deletes a file it owns). */
    public void release() {
        int left = references.decrementAndGet();
        if (left == 0 && arena != null) {
            arena.close();
            if (deleteFile) {
                try {
                    if (giveBackAs != null && owner > 0 && ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                        Files.move(file, giveBackAs, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    } else {
                        Files.deleteIfExists(file);
                    }
                } catch (IOException e) {
                    // a leftover file in the piece directory is swept when its coordinator closes
                }
            }
        } else if (left < 0) {
            throw new IllegalStateException("piece bytes released once too often");
        }
    }
}
