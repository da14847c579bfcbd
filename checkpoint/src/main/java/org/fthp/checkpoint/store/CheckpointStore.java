package org.fthp.checkpoint.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Checkpoint pieces on disk, committed an epoch at a time:
 * <pre>
 * DIR/epoch-&lt;e&gt;/rank-&lt;r&gt;.piece     one per rank, written by whoever holds it
 * DIR/epoch-&lt;e&gt;/MANIFEST            written last, once every piece is durable: its presence is the commit
 * </pre>
 * Every file is written under a temporary name, forced to the device, renamed into place, and its directory
 * forced, so a crash at any moment leaves either the old state or the new one: a piece is whole or absent, and an
 * epoch is committed or not. The latest usable epoch is the highest committed one whose pieces all still match
 * their manifest (a piece lost or damaged since falls back to the epoch before). After each commit the two newest
 * committed epochs are kept and everything older is deleted, so one can be damaged and the other still used.
 *
 * <p>Safe for several writers of different pieces (each node coordinator writes its own ranks' pieces); commits
 * of one directory come from one writer (the primary).
 */
public final class CheckpointStore {
    public static final String MANIFEST = "MANIFEST";
    /** Committed epochs kept after a commit: the new one and the one before it. */
    public static final int KEPT_EPOCHS = 2;
    private static final Pattern EPOCH_DIR = Pattern.compile("epoch-(\\d+)");
    private static final String TEMP_SUFFIX = ".tmp";

    private static final Pattern PREVIOUS_DIR = Pattern.compile("previous-(\\d+)");

    private final Path dir;
    /** The job whose commits this store writes, recorded in each manifest; empty: none recorded (format 1). */
    private final Optional<JobIdentity> job;

    private CheckpointStore(Path dir, Optional<JobIdentity> job) {
        this.dir = dir;
        this.job = job;
    }

    /** As {@link #open(Path)}, for a job whose identity every manifest it commits records. */
    public static CheckpointStore open(Path dir, Optional<JobIdentity> job) throws IOException {
        return new CheckpointStore(open(dir).dir, job);
    }

    /**
     * Opens (creating if needed) the checkpoint directory and proves it writable by writing, forcing and deleting
     * a probe file, so a bad directory is an error at start rather than at the first checkpoint.
     */
    public static CheckpointStore open(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath();
        try {
            Files.createDirectories(abs);
        } catch (IOException e) {
            throw new IOException("checkpoint directory " + abs + " cannot be created: " + describe(e), e);
        }
        if (!Files.isDirectory(abs)) {
            throw new IOException("checkpoint directory " + abs + " is not a directory");
        }
        Path probe = abs.resolve(".fthp-write-probe-" + ProcessHandle.current().pid() + TEMP_SUFFIX);
        try {
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap(new byte[] {1}));
                ch.force(true);
            }
            Files.delete(probe);
        } catch (IOException e) {
            throw new IOException("checkpoint directory " + abs + " is not writable: " + describe(e), e);
        }
        return new CheckpointStore(abs, Optional.empty());
    }

    public Path directory() {
        return dir;
    }

    public Path epochDirectory(long epoch) {
        return dir.resolve("epoch-" + epoch);
    }

    public Path piecePath(long epoch, int rank) {
        return epochDirectory(epoch).resolve("rank-" + rank + ".piece");
    }

    /** Writes one piece durably (bytes 0..limit of {@code piece}) and returns its manifest entry. */
    public PieceEntry writePiece(long epoch, int rank, ByteBuffer piece) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(piece.duplicate().position(0));
        return writePiece(epoch, rank, piece, (int) crc.getValue());
    }

    /**
     * As above, for a piece whose CRC32C the caller knows (it was checked when the piece arrived): no pass over the
     * bytes besides the write. A direct or mapped buffer goes to the file without a copy through the heap.
     */
    public PieceEntry writePiece(long epoch, int rank, ByteBuffer piece, int crc32c) throws IOException {
        if (epoch < 0 || rank < 0) {
            throw new IllegalArgumentException("epoch and rank must be >= 0: " + epoch + ", " + rank);
        }
        ByteBuffer bytes = piece.duplicate().position(0);
        Path epochDir = epochDirectory(epoch);
        Files.createDirectories(epochDir);
        writeDurably(piecePath(epoch, rank), bytes);
        return new PieceEntry(rank, bytes.limit(), crc32c);
    }

    /**
     * Commits an epoch whose pieces are all written: checks each is there with its size, writes the manifest
     * durably (the rename is the commit), then deletes what is older than the {@value #KEPT_EPOCHS} newest
     * committed epochs.
     */
    public void commit(Manifest manifest) throws IOException {
        for (PieceEntry p : manifest.pieces()) {
            Path file = piecePath(manifest.epoch(), p.rank());
            long size;
            try {
                size = Files.size(file);
            } catch (NoSuchFileException e) {
                throw new IOException("cannot commit epoch " + manifest.epoch() + ": piece of rank " + p.rank()
                        + " is not on disk (" + file + ")");
            }
            if (size != p.bytes()) {
                throw new IOException("cannot commit epoch " + manifest.epoch() + ": piece of rank " + p.rank()
                        + " has " + size + " bytes on disk, the manifest says " + p.bytes());
            }
        }
        Manifest stamped = job.isPresent() && manifest.job().isEmpty() ? manifest.withJob(job.get()) : manifest;
        writeDurably(epochDirectory(manifest.epoch()).resolve(MANIFEST), ByteBuffer.wrap(stamped.encode()));
        prune(manifest.epoch());
    }

    /** Committed epochs (those with a manifest file, readable or not), highest first. */
    public List<Long> committedEpochs() throws IOException {
        List<Long> out = new ArrayList<>();
        for (long e : epochs()) {
            if (Files.exists(epochDirectory(e).resolve(MANIFEST))) {
                out.add(e);
            }
        }
        out.sort(Comparator.reverseOrder());
        return out;
    }

    /** The highest epoch with a directory here, committed or not; -1 when there is none. */
    public long highestEpoch() throws IOException {
        return epochs().stream().mapToLong(Long::longValue).max().orElse(-1);
    }

    /**
     * Moves every epoch (and the other entries named in {@code alsoMove}, when present) into a new
     * {@code previous-K} directory here, K one above the highest there is, and returns it; nothing is deleted.
     * Empty when there was nothing to move.
     */
    public Optional<Path> moveAside(List<String> alsoMove) throws IOException {
        List<Path> moving = new ArrayList<>();
        for (long e : epochs()) {
            moving.add(epochDirectory(e));
        }
        for (String name : alsoMove) {
            if (Files.exists(dir.resolve(name))) {
                moving.add(dir.resolve(name));
            }
        }
        if (moving.isEmpty()) {
            return Optional.empty();
        }
        long k = 1;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                Matcher m = PREVIOUS_DIR.matcher(p.getFileName().toString());
                if (m.matches()) {
                    k = Math.max(k, Long.parseLong(m.group(1)) + 1);
                }
            }
        }
        Path aside = dir.resolve("previous-" + k);
        Files.createDirectory(aside);
        for (Path p : moving) {
            Files.move(p, aside.resolve(p.getFileName()), StandardCopyOption.ATOMIC_MOVE);
        }
        forceDirectory(aside);
        forceDirectory(dir);
        return Optional.of(aside);
    }

    /** The highest committed epoch whose manifest and pieces all verify; why each newer one was passed over goes to {@code skipped}. */
    public Optional<Manifest> latestUsable(Consumer<String> skipped) throws IOException {
        for (long epoch : committedEpochs()) {
            try {
                Manifest m = readManifest(epoch);
                for (PieceEntry p : m.pieces()) {
                    verify(epoch, p);
                }
                return Optional.of(m);
            } catch (IOException e) {
                skipped.accept("checkpoint epoch " + epoch + " is not usable: " + e.getMessage());
            }
        }
        return Optional.empty();
    }

    public Optional<Manifest> latestUsable() throws IOException {
        return latestUsable(reason -> { });
    }

    /**
     * Checks every piece of a committed epoch against its manifest (size and CRC32C), reading each file once in
     * blocks, without holding a piece in memory; the first piece that fails is the exception.
     */
    public Manifest verifyEpoch(long epoch) throws IOException {
        Manifest m = readManifest(epoch);
        ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
        for (PieceEntry p : m.pieces()) {
            Path file = piecePath(epoch, p.rank());
            CRC32C crc = new CRC32C();
            long size = 0;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                while (ch.read(block.clear()) > 0) {
                    size += block.flip().remaining();
                    crc.update(block);
                }
            } catch (NoSuchFileException e) {
                throw new IOException("piece of rank " + p.rank() + " is missing (" + file + ")");
            }
            if (size != p.bytes()) {
                throw new IOException("piece of rank " + p.rank() + " has " + size + " bytes, the manifest says "
                        + p.bytes());
            }
            if ((int) crc.getValue() != p.crc32c()) {
                throw new IOException(String.format("piece of rank %d fails its checksum (%08x, manifest %08x)",
                        p.rank(), (int) crc.getValue(), p.crc32c()));
            }
        }
        return m;
    }

    public Manifest readManifest(long epoch) throws IOException {
        return Manifest.decode(Files.readAllBytes(epochDirectory(epoch).resolve(MANIFEST)));
    }

    /** A committed piece, checked against its manifest entry. */
    public ByteBuffer readPiece(long epoch, int rank) throws IOException {
        Manifest m = readManifest(epoch);
        if (rank < 0 || rank >= m.ranks()) {
            throw new IllegalArgumentException("epoch " + epoch + " has ranks 0.." + (m.ranks() - 1) + ", not " + rank);
        }
        return verify(epoch, m.pieces().get(rank));
    }

    /** The manifest entry of a committed piece. */
    public PieceEntry entry(long epoch, int rank) throws IOException {
        Manifest m = readManifest(epoch);
        if (rank < 0 || rank >= m.ranks()) {
            throw new IllegalArgumentException("epoch " + epoch + " has ranks 0.." + (m.ranks() - 1) + ", not " + rank);
        }
        return m.pieces().get(rank);
    }

    /**
     * Reads a committed piece into {@code dst} (from its position; it needs {@code entry.bytes()} bytes) and
     * checks it against its manifest entry, without an intermediate copy.
     */
    public void readPieceInto(long epoch, PieceEntry entry, ByteBuffer dst) throws IOException {
        Path file = piecePath(epoch, entry.rank());
        ByteBuffer into = dst.duplicate();
        int start = into.position();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            if (ch.size() != entry.bytes()) {
                throw new IOException("piece of rank " + entry.rank() + " has " + ch.size()
                        + " bytes, the manifest says " + entry.bytes());
            }
            into.limit(Math.toIntExact(start + entry.bytes()));
            while (into.hasRemaining()) {
                if (ch.read(into) < 0) {
                    throw new IOException("piece of rank " + entry.rank() + " ended early");
                }
            }
        } catch (NoSuchFileException e) {
            throw new IOException("piece of rank " + entry.rank() + " is missing (" + file + ")");
        }
        CRC32C crc = new CRC32C();
        crc.update(into.flip().position(start));
        if ((int) crc.getValue() != entry.crc32c()) {
            throw new IOException(String.format("piece of rank %d fails its checksum (%08x, manifest %08x)",
                    entry.rank(), (int) crc.getValue(), entry.crc32c()));
        }
    }

    private ByteBuffer verify(long epoch, PieceEntry p) throws IOException {
        Path file = piecePath(epoch, p.rank());
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IOException("piece of rank " + p.rank() + " is missing (" + file + ")");
        }
        if (bytes.length != p.bytes()) {
            throw new IOException("piece of rank " + p.rank() + " has " + bytes.length + " bytes, the manifest says "
                    + p.bytes());
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        if ((int) crc.getValue() != p.crc32c()) {
            throw new IOException(String.format("piece of rank %d fails its checksum (%08x, manifest %08x)",
                    p.rank(), (int) crc.getValue(), p.crc32c()));
        }
        return ByteBuffer.wrap(bytes);
    }

    /** After committing {@code newest}: keep the newest committed epochs, delete older ones, committed or not. */
    private void prune(long newest) throws IOException {
        List<Long> committed = committedEpochs();
        if (committed.size() < KEPT_EPOCHS) {
            return;
        }
        long oldestKept = committed.get(KEPT_EPOCHS - 1);
        for (long e : epochs()) {
            // Epochs commit in order, so one below the newest commit that has none never will: abandoned.
            // Epochs above the newest commit may be being written right now: leave them.
            if (e < oldestKept || (e < newest && !committed.contains(e))) {
                deleteEpoch(e);
            }
        }
    }

    private void deleteEpoch(long epoch) throws IOException {
        Path epochDir = epochDirectory(epoch);
        // the manifest first: once it is gone the epoch no longer counts, whatever is left of its pieces
        Files.deleteIfExists(epochDir.resolve(MANIFEST));
        try (Stream<Path> files = Files.list(epochDir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(epochDir);
    }

    private List<Long> epochs() throws IOException {
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                Matcher m = EPOCH_DIR.matcher(p.getFileName().toString());
                if (m.matches() && Files.isDirectory(p)) {
                    out.add(Long.parseLong(m.group(1)));
                }
            }
        }
        return out;
    }

    /** temp name, write, force, rename over the final name, force the directory. */
    private static void writeDurably(Path target, ByteBuffer bytes) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + "." + ProcessHandle.current().pid() + "."
                + Thread.currentThread().threadId() + TEMP_SUFFIX);
        try {
            ByteBuffer src = bytes.duplicate();
            long direct = writeDirect(temp, src);
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    direct == 0 ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.WRITE)) {
                src.position(src.position() + (int) direct);
                ch.position(direct);
                while (src.hasRemaining()) {
                    ch.write(src);
                }
                ch.force(true);
            }
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(temp);
            throw new IOException("the file system of " + target.getParent() + " cannot rename atomically", e);
        }
        forceDirectory(target.getParent());
    }

    /** Bytes written through the page cache's bypass at a time (a multiple of any block size). */
    private static final int DIRECT_CHUNK = 8 << 20;

    /**
     * Writes the block-aligned prefix of a direct (or mapped) buffer with O_DIRECT, bypassing the page cache:
     * several times faster than through it for a large piece (no copy into the cache, no write-back throttling),
     * and the piece is on the device once {@code force} returns either way. Returns the bytes so written (0 for a
     * heap buffer, a small piece, or a file system without O_DIRECT: the caller writes everything).
     */
    private static long writeDirect(Path file, ByteBuffer src) {
        if (!src.isDirect() || src.remaining() < DIRECT_CHUNK) {
            return 0;
        }
        long written = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
            int at = src.position();
            while (src.limit() - at - written >= DIRECT_CHUNK) {
                ByteBuffer chunk = src.slice(at + (int) written, DIRECT_CHUNK);
                while (chunk.hasRemaining()) {
                    ch.write(chunk);
                }
                written += DIRECT_CHUNK;
            }
            return written;
        } catch (IOException | UnsupportedOperationException e) {
            // no O_DIRECT here, or the buffer's address is not aligned: the whole piece goes through the cache
            return 0;
        }
    }

    private static void forceDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
    }
}
