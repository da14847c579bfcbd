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
 * Where each copy's stdout and stderr go. A computational copy with a replica
 * appends to the rank's output files, which fthp-run relays
 * ({@link RankOutputFiles}). A replica's twin prints the same bytes, so while
 * the twin lives the replica's are kept only in a ring of the latest ones
 * (or, for debugging, shown with a prefix); when the replica is promoted it
 * prints from exactly where its twin stopped: the files' length.
 */
public final class ReplicaOutput {

    /** How far behind its twin a replica's output may be and still be printed exactly. */
    private static final int RING_BYTES = Integer.getInteger("fthp.output.ringBytes", 4 << 20);

    private final RankOutputFiles files;
    /** A replica's rings while its twin lives; null on a computational copy and once promoted. */
    private Ring out;
    private Ring err;

    private ReplicaOutput(RankOutputFiles files, Ring out, Ring err) {
        this.files = files;
        this.out = out;
        this.err = err;
    }

    /**
     * A computational copy of a replicated rank: write to the rank's files,
     * where its replica can see how far it got. Fails rather than print
     * elsewhere: the replica would then reprint everything at a promotion.
     */
    public static ReplicaOutput installComputational(int logicalRank) throws IOException {
        RankOutputFiles files = RankOutputFiles.of(logicalRank);
        if (files == null) {
            return new ReplicaOutput(null, null, null);
        }
        OutputStream stdout = files.append(RankOutputFiles.STDOUT);
        OutputStream stderr;
        try {
            stderr = files.append(RankOutputFiles.STDERR);
        } catch (IOException e) {
            stdout.close();
            throw e;
        }
        System.setOut(lineFlushed(stdout));
        System.setErr(lineFlushed(stderr));
        return new ReplicaOutput(files, null, null);
    }

    /** A replica: its output goes to rings (shown with a prefix if {@code show}) while its twin lives. */
    public static ReplicaOutput install(int logicalRank, boolean show) throws IOException {
        RankOutputFiles files = RankOutputFiles.of(logicalRank);
        byte[] prefix = ("[replica " + logicalRank + "] ").getBytes(StandardCharsets.UTF_8);
        Ring out = new Ring(show ? new LinePrefixer(new FileOutputStream(FileDescriptor.out), prefix) : null);
        Ring err = new Ring(show ? new LinePrefixer(new FileOutputStream(FileDescriptor.err), prefix) : null);
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ReplicaOutput(files, out, err);
    }

    /**
     * The replica's twin died and it computes now: what it prints is the
     * rank's output, from the byte its twin reached.
     */
    public void promote() {
        if (out == null) {
            return;
        }
        System.out.flush();
        System.err.flush();
        System.setOut(takeOver(out, FileDescriptor.out, RankOutputFiles.STDOUT));
        System.setErr(takeOver(err, FileDescriptor.err, RankOutputFiles.STDERR));
        out = null;
        err = null;
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
    private PrintStream takeOver(Ring mine, FileDescriptor fd, int stream) {
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
            long skip = 0;
            try {
                if (twin < mine.written) {
                    sink.write(mine.since(twin));
                } else {
                    skip = twin - mine.written;
                }
            } catch (IOException e) {
                // nowhere left to report it
            }
            OutputStream next = new BufferedOutputStream(new SkippingOutput(sink, skip), 8192);
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
        long written;
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
}
