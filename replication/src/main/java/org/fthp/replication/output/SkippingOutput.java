package org.fthp.replication.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A promoted replica's output when its dead twin had written further than
 * the replica had printed: the first {@code skip} bytes are already in the
 * rank's output and are dropped.
 */
final class SkippingOutput extends FilterOutputStream {

    private long skip;

    SkippingOutput(OutputStream out, long skip) {
        super(out);
        this.skip = skip;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        int drop = (int) Math.min(skip, len);
        skip -= drop;
        if (len > drop) {
            out.write(b, off + drop, len - drop);
        }
    }
}
