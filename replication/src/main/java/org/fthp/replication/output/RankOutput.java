package org.fthp.replication.output;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Where each copy's stdout and stderr go, and how far the rank's output has
 * got. When fthp-run relays output files (a replicated rank, or any rank of a
 * job that may restart), a computational copy appends to the rank's files
 * ({@link RankOutputFiles}). A replica's twin prints the same bytes, so while
 * the twin lives the replica's are kept only in a ring of the latest ones (or,
 * for debugging, shown with a prefix); when the replica is promoted it prints
 * from exactly where its twin stopped: the files' length.
 *
 * <p>Every stream counts the rank's logical position (what the program
 * printed since it started). A checkpoint records it; after a restart the
 * program prints again what it printed after that checkpoint, and only what
 * the files do not hold yet reaches them (docs/DESIGN.md §12).
 */
public final class RankOutput {

    /** How many ranks (the lowest) fthp-run's relay prints only up to their verified positions; 0 or unset: none. */
    public static final String GATED_RANKS_ENV = "FTHP_VERIFIED_RANKS";

    /**
     * How many ranks, from 0, fthp-run prints only up to their positions at the last committed epoch (the twins of
     * every replicated rank agreed up to there: docs/DESIGN.md §22): those whose output a rollback after a
     * difference between twins may cut back to that epoch's positions.
     */
    public static int gatedRanks() {
        String v = System.getenv(GATED_RANKS_ENV);
        try {
            return v == null || v.isBlank() ? 0 : Math.max(0, Integer.parseInt(v.strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** How far behind its twin a replica's output may be and still be printed exactly. */
    private static final int RING_BYTES = Integer.getInteger("fthp.output.ringBytes", 4 << 20);

    /** How a copy's output starts. */
    public enum Start {
        /** The job's first run. */
        FRESH,
        /** A restart from the beginning: the program prints everything again, the files hold part of it. */
        AGAIN,
        /** A restart from a checkpoint: nothing counts until {@link #resumeAt} gives the checkpoint's positions. */
        FROM_CHECKPOINT
    }

    private static final int STREAMS = 2;

    private final RankOutputTarget files;
    /** A replica's rings while its twin lives; null on a computational copy and once promoted. */
    private final Ring[] rings = new Ring[STREAMS];
    /** A computational copy's positioned streams (also a promoted replica's). */
    private final PositionedOutput[] positioned = new PositionedOutput[STREAMS];
    /** A rollback in place whose recovery cuts the files back to the recovered positions ({@link #rollBack}). */
    private volatile boolean discardAfterResume;

    private RankOutput(RankOutputTarget files) {
        this.files = files;
    }

    /**
     * A computational copy: write to the rank's files, where its replica (and
     * a restart) can see how far it got; null when fthp-run relays no files
     * for this rank (it prints through mpirun). Fails rather than print
     * elsewhere: a replica or a restart would then reprint everything.
     */
    public static RankOutput installComputational(int logicalRank, Start start) throws IOException {
        RankOutputTarget files = targetFor(logicalRank);
        if (files == null) {
            return null;
        }
        RankOutput o = new RankOutput(files);
        OutputStream[] sinks = new OutputStream[STREAMS];
        try {
            for (int s = 0; s < STREAMS; s++) {
                sinks[s] = files.append(s);
            }
        } catch (IOException e) {
            for (OutputStream sink : sinks) {
                if (sink != null) {
                    sink.close();
                }
            }
            throw e;
        }
        for (int s = 0; s < STREAMS; s++) {
            o.positioned[s] = new PositionedOutput(sinks[s], 0, start == Start.FRESH ? 0 : files.written(s));
            if (start == Start.FROM_CHECKPOINT) {
                o.positioned[s].hold();
            }
        }
        System.setOut(lineFlushed(o.positioned[RankOutputFiles.STDOUT]));
        System.setErr(lineFlushed(o.positioned[RankOutputFiles.STDERR]));
        return o;
    }

    /** A replica: its output goes to rings (shown with a prefix if {@code show}) while its twin lives. */
    public static RankOutput installReplica(int logicalRank, boolean show, Start start) throws IOException {
        RankOutput o = new RankOutput(targetFor(logicalRank));
        byte[] prefix = ("[replica " + logicalRank + "] ").getBytes(StandardCharsets.UTF_8);
        FileDescriptor[] fds = {FileDescriptor.out, FileDescriptor.err};
        for (int s = 0; s < STREAMS; s++) {
            o.rings[s] = new Ring(show ? new LinePrefixer(new FileOutputStream(fds[s]), prefix) : null);
            o.rings[s].holding = start == Start.FROM_CHECKPOINT;
        }
        System.setOut(new PrintStream(o.rings[RankOutputFiles.STDOUT], true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(o.rings[RankOutputFiles.STDERR], true, StandardCharsets.UTF_8));
        return o;
    }

    /**
     * The rank's logical positions on stdout and stderr, after flushing what
     * the program printed: what a checkpoint records.
     */
    public long[] positions() {
        System.out.flush();
        System.err.flush();
        long[] at = new long[STREAMS];
        for (int s = 0; s < STREAMS; s++) {
            at[s] = positioned[s] != null ? positioned[s].position() : rings[s].position();
        }
        return at;
    }

    /**
     * A restart recovered its checkpoint, taken at logical positions {@code
     * at}: the program goes on from there, and what the files hold already
     * is not printed again.
     */
    public void resumeAt(long[] at) {
        System.out.flush();
        System.err.flush();
        boolean discard = discardAfterResume;
        discardAfterResume = false;
        for (int s = 0; s < STREAMS; s++) {
            if (positioned[s] != null && discard && files != null && files.written(s) > at[s]) {
                files.cut(s, at[s]);
            }
            if (positioned[s] != null) {
                positioned[s].resumeAt(at[s], files.written(s));
            } else {
                rings[s].resumeAt(at[s]);
            }
        }
    }

    /**
     * The job rolls back in place: what the program prints from now until it recovers the checkpoint was printed
     * before, so nothing counts until {@link #resumeAt} gives the checkpoint's positions (as at a restart). With
     * {@code discardAfter} what the rank's files hold past those positions goes at {@link #resumeAt}, and the rerun
     * prints it again: after a difference between twins it may be a corrupted copy's, and fthp-run never printed it
     * (it prints this rank's files only up to a committed epoch's positions).
     */
    public void rollBack(boolean discardAfter) {
        System.out.flush();
        System.err.flush();
        discardAfterResume = discardAfter;
        for (int s = 0; s < STREAMS; s++) {
            if (positioned[s] != null) {
                positioned[s].hold();
            } else {
                rings[s].hold();
            }
        }
    }

    /**
     * The replica's twin died and it computes now: what it prints is the
     * rank's output, from the byte its twin reached.
     */
    public void promote() {
        if (rings[0] == null) {
            return;
        }
        System.out.flush();
        System.err.flush();
        System.setOut(takeOver(RankOutputFiles.STDOUT, FileDescriptor.out));
        System.setErr(takeOver(RankOutputFiles.STDERR, FileDescriptor.err));
        rings[RankOutputFiles.STDOUT] = null;
        rings[RankOutputFiles.STDERR] = null;
    }

    /**
     * Under the ring's lock, so a line the program is printing right now (the
     * repair thread may promote while the program computes) is either in the
     * ring already, and reprinted if the twin had not, or goes on to the new
     * stream: nothing between the two is lost.
     *
     * <p>The twin is dead (the coordinators learn of a death when its socket
     * closes or the launcher reaps it, after its last write), so the file's
     * length no longer moves.
     */
    private PrintStream takeOver(int stream, FileDescriptor fd) {
        Ring mine = rings[stream];
        synchronized (mine) {
            OutputStream sink = null;
            long twin = mine.written;
            if (files != null) {
                try {
                    sink = files.append(stream);
                    twin = files.written(stream);
                } catch (IOException e) {
                    // without the files only what comes next can be printed
                }
            }
            if (sink == null) {
                sink = new FileOutputStream(fd);
            }
            try {
                if (twin < mine.written) {
                    sink.write(mine.since(twin));
                }
            } catch (IOException e) {
                // nowhere left to report it
            }
            positioned[stream] = new PositionedOutput(sink, mine.written, twin);
            OutputStream next = new BufferedOutputStream(positioned[stream], 8192);
            mine.successor = next;
            return new PrintStream(next, true, StandardCharsets.UTF_8);
        }
    }

    private static PrintStream lineFlushed(OutputStream file) {
        return new PrintStream(new BufferedOutputStream(file, 8192), true, StandardCharsets.UTF_8);
    }

    /** A replica's output: counted, the latest bytes kept, optionally shown. */
    private static final class Ring extends OutputStream {
        private final byte[] ring = new byte[RING_BYTES];
        private final OutputStream show;
        /** The rank's logical position: every byte the program printed on this stream. */
        long written;
        /** A restart before the checkpoint is recovered: nothing counts yet. */
        boolean holding;
        /** After promotion: where writes through a stream taken before it go. */
        OutputStream successor;

        Ring(OutputStream show) {
            this.show = show;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (successor != null) {
                successor.write(b);
                return;
            }
            if (holding) {
                return;
            }
            ring[(int) (written++ % ring.length)] = (byte) b;
            if (show != null) {
                show.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (successor != null) {
                successor.write(b, off, len);
                return;
            }
            if (holding) {
                return;
            }
            for (int i = 0; i < len; i++) {
                ring[(int) ((written + i) % ring.length)] = b[off + i];
            }
            written += len;
            if (show != null) {
                show.write(b, off, len);
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            if (successor != null) {
                successor.flush();
            } else if (show != null) {
                show.flush();
            }
        }

        synchronized void hold() {
            holding = true;
        }

        /** A restart recovered its checkpoint: the program goes on from logical position {@code at}. */
        synchronized void resumeAt(long at) {
            holding = false;
            written = at;
        }

        synchronized long position() {
            return written;
        }

        /** The bytes written from position {@code from} on (as many as the ring still holds). */
        synchronized byte[] since(long from) {
            long start = Math.max(from, written - ring.length);
            byte[] b = new byte[(int) (written - start)];
            for (int i = 0; i < b.length; i++) {
                b[i] = ring[(int) ((start + i) % ring.length)];
            }
            return b;
        }
    }

    /**
     * Writes each line with the prefix in one piece: mpirun merges many
     * processes' output, and a prefix written apart from its line could land
     * in front of another process's line.
     */
    static final class LinePrefixer extends FilterOutputStream {
        private final byte[] prefix;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(256);

        LinePrefixer(OutputStream out, byte[] prefix) {
            super(out);
            this.prefix = prefix;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (line.size() == 0) {
                line.write(prefix);
            }
            line.write(b);
            if (b == '\n') {
                emit();
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            // a partial line waits for its end, so it is never split
            out.flush();
        }

        @Override
        public synchronized void close() throws IOException {
            if (line.size() > 0) {
                emit();
            }
            super.close();
        }

        private void emit() throws IOException {
            out.write(line.toByteArray());
            out.flush();
            line.reset();
        }
    }

    /** The target fthp-run set up for logical rank {@code logical}: its sink on several hosts, else its files. */
    private static RankOutputTarget targetFor(int logical) throws IOException {
        String sink = System.getenv(RemoteRankOutput.SINK_ENV);
        if (sink != null && !sink.isBlank()) {
            return RemoteRankOutput.connect(sink.strip(), logical);
        }
        return RankOutputFiles.of(logical);
    }
}
