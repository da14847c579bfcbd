package org.fthp.replication.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One of a rank's output streams as a computational copy writes it: counts
 * the rank's logical position (every byte the program printed since it
 * started, across promotions and restarts) and passes on only the bytes the
 * rank's file does not hold yet.
 *
 * <ul>
 *   <li>A promoted replica whose dead twin had printed further: the bytes up
 *       to the twin's length are dropped.
 *   <li>A restart: the program prints again what it printed after the
 *       checkpoint it resumes from; until the checkpoint is recovered nothing
 *       counts ({@link #hold}), then the position is the checkpoint's and the
 *       bytes up to what was relayed before the restart are dropped.
 * </ul>
 */
final class PositionedOutput extends FilterOutputStream {

    private long position;
    /** Bytes below this position are in the rank's output already. */
    private long skipUntil;
    private boolean holding;

    PositionedOutput(OutputStream out, long position, long skipUntil) {
        super(out);
        this.position = position;
        this.skipUntil = skipUntil;
    }

    /** Drops and does not count anything written until {@link #resumeAt}. */
    synchronized void hold() {
        holding = true;
    }

    /** From now on the rank's logical position is {@code at}; its output already holds {@code relayed} bytes. */
    synchronized void resumeAt(long at, long relayed) {
        holding = false;
        position = at;
        skipUntil = relayed;
    }

    /** The rank's logical position: every byte the program printed on this stream. */
    synchronized long position() {
        return position;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (holding) {
            return;
        }
        int drop = (int) Math.max(0, Math.min(skipUntil - position, len));
        position += len;
        if (len > drop) {
            out.write(b, off + drop, len - drop);
        }
    }
}
