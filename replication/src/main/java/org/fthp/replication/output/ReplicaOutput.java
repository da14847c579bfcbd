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

    private ReplicaOutput() {}

    public static void install(int logicalRank, boolean show) {
        if (show) {
            byte[] prefix = ("[replica " + logicalRank + "] ").getBytes(StandardCharsets.UTF_8);
            System.setOut(new PrintStream(new LinePrefixer(System.out, prefix), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new LinePrefixer(System.err, prefix), true, StandardCharsets.UTF_8));
        } else {
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            System.setErr(new PrintStream(OutputStream.nullOutputStream()));
        }
    }

    /** Writes a prefix before the first byte of every line. */
    static final class LinePrefixer extends FilterOutputStream {
        private final byte[] prefix;
        private boolean atLineStart = true;

        LinePrefixer(OutputStream out, byte[] prefix) {
            super(out);
            this.prefix = prefix;
        }

        @Override
        public void write(int b) throws IOException {
            if (atLineStart) {
                out.write(prefix);
            }
            out.write(b);
            atLineStart = b == '\n';
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }
    }
}
