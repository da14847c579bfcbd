package org.fthp.replication.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A computational copy's stdout or stderr as the kernel gets it: each write
 * goes out, then the ledger says how many bytes went out so far. (A kill
 * between the two makes the replica print that one write again.)
 *
 * <p>After a promotion it also skips the bytes the dead twin had already
 * written beyond this copy's own position.
 */
final class CountingOutput extends FilterOutputStream {

    private final OutputLedger ledger;
    private final int stream;
    private long written;
    private long skip;

    CountingOutput(OutputStream out, OutputLedger ledger, int stream, long alreadyWritten, long skip) {
        super(out);
        this.ledger = ledger;
        this.stream = stream;
        this.written = alreadyWritten;
        this.skip = skip;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (skip > 0) {
            int drop = (int) Math.min(skip, len);
            skip -= drop;
            written += drop;
            off += drop;
            len -= drop;
        }
        if (len > 0) {
            out.write(b, off, len);
            written += len;
        }
        if (ledger != null) {
            ledger.publish(stream, written);
        }
    }
}
