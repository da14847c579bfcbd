package org.fthp.replication.verify;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far a rank's output may be printed while a rollback may come: up to its positions at the last committed
 * epoch. An epoch commits only once the twins of every replicated rank agreed at it, and a corrupted value can
 * travel from one rank to another in a message, so only a commit says that every rank's output up to there is
 * right; a rollback resumes there too. fthp-run's relay reads {@code verified-RANK} (two longs: stdout and stderr
 * positions); before a rollback's relaunch it truncates the files at the restart epoch's positions, which
 * {@code positions-RANK} lists by epoch (docs/DESIGN.md §22).
 */
public final class VerifiedOutput {

    /** Where the ranks' output files are (fthp-run's relay). */
    private static final String OUTPUT_DIR_ENV = "FTHP_OUTPUT_DIR";

    private final Path file;
    private final Path temp;
    private final Path byEpoch;
    /** The positions of each epoch this copy took part in, until it commits. */
    private final TreeMap<Long, long[]> atEpoch = new TreeMap<>();
    private long published = -1;

    private VerifiedOutput(Path file, Path temp, Path byEpoch) {
        this.file = file;
        this.temp = temp;
        this.byEpoch = byEpoch;
    }

    /** Null when the rank's output does not go through fthp-run's files. */
    public static VerifiedOutput forRank(int logicalRank, int nativeRank) {
        String dir = System.getenv(OUTPUT_DIR_ENV);
        return dir == null ? null : new VerifiedOutput(Path.of(dir, "verified-" + logicalRank),
                Path.of(dir, ".verified-" + logicalRank + "-" + nativeRank), Path.of(dir, "positions-" + logicalRank));
    }

    /** The rank's output stood at {@code positions} when epoch {@code epoch} was taken (listed by the writer). */
    public void taken(long epoch, long[] positions, boolean writer) {
        atEpoch.put(epoch, positions.clone());
        if (writer) {
            try {
                Files.writeString(byEpoch, epoch + " " + positions[0] + " " + positions[1] + "\n",
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                // a rollback to this epoch then keeps the rank's output as far as it was verified
            }
        }
    }

    /** Epoch {@code committed} (or a later one) is committed: its positions may be printed (by the writer only). */
    public void committed(long committed, boolean writer) {
        Map.Entry<Long, long[]> e = atEpoch.floorEntry(committed);
        if (e == null || e.getKey() <= published) {
            return;
        }
        published = e.getKey();
        long[] at = e.getValue();
        atEpoch.headMap(e.getKey(), true).clear();
        if (!writer) {
            return;
        }
        ByteBuffer b = ByteBuffer.allocate(16).putLong(0, at[0]).putLong(8, at[1]);
        try {
            Files.write(temp, b.array());
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ex) {
            // the output waits for the next commit, or the end of the job
        }
    }
}
