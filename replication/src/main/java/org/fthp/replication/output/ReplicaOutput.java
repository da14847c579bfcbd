package org.fthp.replication.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A replica's stdout and stderr. Its twin prints the same lines, so while the
 * twin lives they are dropped; for debugging they can be shown, each line
 * prefixed with the replica's rank.
 */
public final class ReplicaOutput {

    private static PrintStream originalOut;
    private static PrintStream originalErr;

    private ReplicaOutput() {}

    /** The replica's twin died and it computes now: what it prints is the rank's output. */
    public static void promote() {
        if (originalOut != null) {
            System.out.flush();
            System.err.flush();
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
    }

    public static void install(int logicalRank, boolean show) {
        originalOut = System.out;
        originalErr = System.err;
        if (show) {
            byte[] prefix = ("[replica " + logicalRank + "] ").getBytes(StandardCharsets.UTF_8);
            System.setOut(new PrintStream(new LinePrefixer(System.out, prefix), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new LinePrefixer(System.err, prefix), true, StandardCharsets.UTF_8));
        } else {
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            System.setErr(new PrintStream(OutputStream.nullOutputStream()));
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
