package org.fthp.replication.output;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How many bytes a computational copy has written to stdout and stderr, in a
 * small file both twins map (in the job's statistics directory): when the
 * replica is promoted it reads where its twin stopped, and prints from
 * exactly there, so no byte of the rank's output is lost or printed twice.
 *
 * <p>The file is shared memory on one host; a replica on another host would
 * need the count from the coordinators instead (not done).
 */
final class OutputLedger {

    static final int STDOUT = 0;
    static final int STDERR = 1;

    private final MemorySegment counts;

    private OutputLedger(MemorySegment counts) {
        this.counts = counts;
    }

    /** The ledger of logical rank {@code logical}, or null when the job has no shared directory. */
    static OutputLedger open(int logical) {
        String dir = System.getenv("FTHP_STATS_DIR");
        if (dir == null || dir.isBlank()) {
            return null;
        }
        try (FileChannel ch = FileChannel.open(Path.of(dir, "output-" + logical), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new OutputLedger(ch.map(FileChannel.MapMode.READ_WRITE, 0, 16, Arena.global()));
        } catch (IOException | UnsupportedOperationException e) {
            System.err.println("fthp: cannot share output counts in " + dir + ": " + e.getMessage());
            return null;
        }
    }

    void publish(int stream, long bytes) {
        counts.set(ValueLayout.JAVA_LONG, 8L * stream, bytes);
    }

    long written(int stream) {
        return counts.get(ValueLayout.JAVA_LONG, 8L * stream);
    }
}
