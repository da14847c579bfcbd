package org.fthp.coordinator.checkpoint;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where pieces live in memory on a host: files in its shared-memory file system ({@code /dev/shm}), which a process
 * and its node coordinator both map, so a piece changes hands between them by name, without a copy, and a
 * coordinator's held pieces are out of its Java heap.
 *
 * <pre>
 * fthp-put-&lt;port&gt;-&lt;pid&gt;-&lt;slot&gt;     a process's piece for the coordinator at that port, handed over (and held)
 * fthp-free-&lt;port&gt;-&lt;pid&gt;-&lt;slot&gt;    the same file given back once the coordinator dropped its piece: the process
 *                                     still has it mapped and writes its next piece into the same pages
 * fthp-held-&lt;port&gt;-&lt;epoch&gt;-&lt;rank&gt;-&lt;n&gt;    a piece the coordinator received over a socket (a partner's copy, a fetch)
 * fthp-seen-&lt;port&gt;-&lt;pid&gt;-&lt;n&gt;              a process's marker: whoever can see it shares the host's memory
 * </pre>
 * Names carry the coordinator's port, so every file a coordinator's job left behind (a process killed in the
 * middle of a hand-off) is found and deleted when that coordinator starts and closes.
 */
public final class PieceDirectory {
    /** Overrides the directory (default {@code /dev/shm}, or the temporary directory where there is none). */
    public static final String ENV = "FTHP_PIECE_DIR";

    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final Path dir;
    private final int port;

    public PieceDirectory(Path dir, int coordinatorPort) {
        this.dir = dir;
        this.port = coordinatorPort;
    }

    /** This host's directory for pieces. */
    public static Path hostDefault() {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env.strip());
        }
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    public Path directory() {
        return dir;
    }

    /**
     * A process's slot {@code k} for pieces to this directory's coordinator, while handed over (the coordinator
     * holds or is taking the piece in it).
     */
    public Path handOff(int slot) {
        return dir.resolve("fthp-put-" + port + "-" + ProcessHandle.current().pid() + "-" + slot);
    }

    /** The same slot given back: the coordinator dropped its piece, the process may write the next one into it. */
    public Path free(int slot) {
        return dir.resolve("fthp-free-" + port + "-" + ProcessHandle.current().pid() + "-" + slot);
    }

    /** The process that made a hand-off file (-1 if the name says none). */
    public static long ownerOf(Path handOff) {
        String[] parts = handOff.getFileName().toString().split("-");
        try {
            return parts.length == 5 ? Long.parseLong(parts[3]) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The name a hand-off file takes when its coordinator gives it back. */
    public Path freeNameOf(Path handOff) {
        return handOff.resolveSibling("fthp-free-" + handOff.getFileName().toString().substring("fthp-put-".length()));
    }

    /** A new name for a piece the coordinator holds. */
    public Path held(long epoch, int rank) {
        return dir.resolve("fthp-held-" + port + "-" + epoch + "-" + rank + "-" + SEQUENCE.incrementAndGet());
    }

    /** A new name for a process's marker. */
    public Path marker() {
        return dir.resolve("fthp-seen-" + port + "-" + ProcessHandle.current().pid() + "-"
                + SEQUENCE.incrementAndGet());
    }

    /** Whether {@code path} names a hand-off file for this coordinator in this directory (nothing else is taken). */
    public boolean isHandOff(Path path) {
        return dir.equals(path.getParent()) && path.getFileName().toString().startsWith("fthp-put-" + port + "-");
    }

    /** Whether {@code path} names a marker for this coordinator in this directory. */
    public boolean isMarker(Path path) {
        return dir.equals(path.getParent()) && path.getFileName().toString().startsWith("fthp-seen-" + port + "-");
    }

    /**
     * Deletes the files of this coordinator's: at its start the pieces a predecessor at the same port held; at its
     * close ({@code all}) also what its processes left half handed over.
     */
    public void sweep(boolean all) {
        String[] prefixes = all
                ? new String[] {"fthp-put-" + port + "-", "fthp-held-" + port + "-", "fthp-seen-" + port + "-",
                                "fthp-free-" + port + "-"}
                : new String[] {"fthp-held-" + port + "-"};
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "fthp-*-" + port + "-*")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                for (String p : prefixes) {
                    if (name.startsWith(p)) {
                        Files.deleteIfExists(f);
                        break;
                    }
                }
            }
        } catch (IOException e) {
            // nothing to sweep, or not now: the files are in memory that the host frees at reboot at the latest
        }
    }
}
