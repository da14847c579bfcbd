package org.fthp.replication.ops;

import org.fthp.msglog.MessageHeader;

/**
 * When a message's payload travels apart from its header (see
 * {@code MessageHeader.FLAG_RENDEZVOUS}): whenever header and payload
 * together would exceed what the native library delivers eagerly.
 *
 * <p>The reason is safety, not speed. A receive is posted before the message
 * it will match is known, so it may be shorter than that message (the
 * program's error, which must end in {@code MPI_ERR_TRUNCATE}). Open MPI
 * 4.1.4's shared-memory transport handles that only within its eager limit
 * (4 KiB): above it (a plain C program shows it) it writes the
 * whole message past the end of the receive buffer, or crashes. So no native
 * message above {@link #EAGER_BYTES} is ever received except with its exact
 * size, which the header announces. A payload apart from its header is also
 * sent from, and received into, a direct buffer without a copy.
 */
final class Rendezvous {

    /** The largest native message received without knowing its size first (header included). */
    static final long EAGER_BYTES = Long.getLong("fthp.eager.bytes", 4000);

    /** Payloads from this size travel apart from their header. */
    static final long THRESHOLD_BYTES = Math.max(1, EAGER_BYTES - MessageHeader.BYTES + 1);

    private Rendezvous() {}
}
