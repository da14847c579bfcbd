package org.fthp.replication.ops;

/**
 * When a message's payload travels apart from its header (see
 * {@code MessageHeader.FLAG_RENDEZVOUS}). Below the threshold one native
 * message is cheaper; above it, receiving the payload straight into the
 * program's memory saves a copy as large as the message.
 */
final class Rendezvous {

    static final long THRESHOLD_BYTES = Long.getLong("fthp.rendezvous.bytes", 256 * 1024);

    private Rendezvous() {}
}
