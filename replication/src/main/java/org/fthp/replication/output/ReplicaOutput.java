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
 * writes through a counter its replica can read ({@link OutputLedger}). A
 * replica's twin prints the same bytes, so while the twin lives the
 * replica's are kept only in a ring of the latest ones (or, for debugging,
 * shown with a prefix); when the replica is promoted it prints from exactly
 * where its twin stopped.
 */
public final class ReplicaOutput {

    /** How far behind its twin a replica's output may be and still be printed exactly. */
    private static final int RING_BYTES = Integer.getInteger("fthp.output.ringBytes", 4 << 20);

    private static OutputLedger ledger;
    private static Ring out;
    private static Ring err;

    private ReplicaOutput() {}

    /** A computational copy of a replicated rank: count what it writes, for its replica. */
    public static void installComputational(int logicalRank) {
        ledger = OutputLedger.open(logicalRank);
        if (ledger == null) {
            return;
        }
        System.setOut(new PrintStream(counted(FileDescriptor.out, OutputLedger.STDOUT, 0, 0, ledger), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(counted(FileDescriptor.err, OutputLedger.STDERR, 0, 0, ledger), true, StandardCharsets.UTF_8));
    }

    public static void install(int logicalRank, boolean show) {
        ledger = OutputLedger.open(logicalRank);
        byte[] prefix = ("[replica " + logicalRank + "] ").getBytes(StandardCharsets.UTF_8);
        out = new Ring(show ? new LinePrefixer(new FileOutputStream(FileDescriptor.out), prefix) : null);
        err = new Ring(show ? new LinePrefixer(new FileOutputStream(FileDescriptor.err), prefix) : null);
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /**
     * The replica's twin died and it computes now: what it prints is the
     * rank's output, from the byte its twin reached.
     */
    public static void promote() {
        if (out == null) {
            return;
        }
        System.out.flush();
        System.err.flush();
        System.setOut(takeOver(out, FileDescriptor.out, OutputLedger.STDOUT));
        System.setErr(takeOver(err, FileDescriptor.err, OutputLedger.STDERR));
        out = null;
        err = null;
    }

    /**
     * Under the ring's lock, so a line the program is printing right now (the
     * repair thread may promote while the program computes) is either in the
     * ring already, and reprinted if the twin had not, or goes on to the new
     * stream: nothing between the two is lost.
     */
    private static PrintStream takeOver(Ring mine, FileDescriptor fd, int stream) {
        synchronized (mine) {
            long twin = ledger == null ? mine.written : ledger.written(stream);
            long skip = 0;
            try {
                if (twin < mine.written) {
                    byte[] missed = mine.since(twin);
                    new FileOutputStream(fd).write(missed);
                } else {
                    skip = twin - mine.written;
                }
            } catch (IOException e) {
                // nowhere left to report it
            }
            OutputStream next = counted(fd, stream, Math.max(twin, mine.written), skip, null);
            mine.successor = next;
            return new PrintStream(next, true, StandardCharsets.UTF_8);
        }
    }

    /** Buffered above the counter, so the count is what reached the kernel; flushed at every line. */
    private static OutputStream counted(FileDescriptor fd, int stream, long written, long skip, OutputLedger to) {
        return new BufferedOutputStream(new CountingOutput(new FileOutputStream(fd), to, stream, written, skip), 8192);
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
