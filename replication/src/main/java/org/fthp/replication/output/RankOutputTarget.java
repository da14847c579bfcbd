package org.fthp.replication.output;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Where a relayed rank's output goes and how much of it the user has: the rank's files on one host
 * ({@link RankOutputFiles}), or fthp-run's output sink when the copies run on several hosts
 * ({@link RemoteRankOutput}). Both promise the same: {@link #written} is exactly the bytes that reached the
 * user's side (never a byte a killed writer did not finish sending), so a promoted replica continues from there.
 */
interface RankOutputTarget {

    /** A stream that adds to {@code stream}'s output after what {@link #written} last said it held. */
    OutputStream append(int stream) throws IOException;

    /** Every byte any copy of the rank delivered on {@code stream}. */
    long written(int stream);

    /**
     * Drops what {@code stream} holds past {@code length} bytes, which nobody has shown yet (a rollback after a
     * difference between twins); does nothing where the output is not held back (several hosts).
     */
    default void cut(int stream, long length) {
    }
}
