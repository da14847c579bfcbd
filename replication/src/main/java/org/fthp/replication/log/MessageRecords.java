package org.fthp.replication.log;

import org.fthp.msglog.ReceiveLog;
import org.fthp.msglog.SendLog;

/**
 * This process's account of its point-to-point traffic: what it sent (the
 * sender-based log, kept only when the job has replicas — without them no
 * copy could ever need a resend), what it consumed, and counters for the
 * run's summary.
 */
public final class MessageRecords {

    private final SendLog sendLog;
    private final ReceiveLog receiveLog;
    private long nativeMessages;
    private long nativeBytes;
    private long pulledPayloads;
    private long pushedPayloads;

    /**
     * Bytes a process's send log may hold before a blocking send waits for
     * acknowledgements (fthp-run --log-limit, FTHP_LOG_LIMIT); nothing a
     * recovery could need is ever dropped to stay under it.
     */
    public static final long LOG_LIMIT_BYTES = limit();

    private Acknowledgements acks;

    private MessageRecords(boolean logging) {
        this.sendLog = logging ? new SendLog(Long.MAX_VALUE) : null;
        this.receiveLog = logging ? new ReceiveLog() : null;
    }

    private static long limit() {
        String env = System.getenv("FTHP_LOG_LIMIT");
        if (env != null && !env.isBlank()) {
            return Long.parseLong(env.strip());
        }
        return Long.getLong("fthp.log.limitBytes", 256L << 20);
    }

    /** From now on consumption is acknowledged to senders, and their acknowledgements trim this log. */
    public void acknowledgeWith(Acknowledgements acknowledgements) {
        this.acks = acknowledgements;
    }

    public Acknowledgements acknowledgements() { return acks; }

    /** Whether the log holds more than its limit: a blocking send then waits for acknowledgements. */
    public boolean overLimit() {
        return sendLog != null && sendLog.bytes() > LOG_LIMIT_BYTES;
    }

    public static MessageRecords create(boolean replicated) {
        return new MessageRecords(replicated);
    }

    /** The send log, or null when nothing is logged. */
    public SendLog sendLog() { return sendLog; }

    /** The receive records, or null when nothing is logged. */
    public ReceiveLog receiveLog() { return receiveLog; }

    /** Counts one native point-to-point message of the program (header included). */
    public void sent(long bytes) {
        nativeMessages++;
        nativeBytes += bytes;
    }

    /** Message {@code sendId} of stream (commId, source), {@code payloadBytes} long, was consumed. */
    public void consumed(int commId, int source, long sendId, long payloadBytes) {
        if (receiveLog != null) {
            receiveLog.consumed(commId, source, sendId);
            if (acks != null) {
                acks.consumed(commId, source, receiveLog.consumedThrough(commId, source), payloadBytes);
            }
        }
    }

    /**
     * A synchronous send's message was matched here: its sender's live copies are told at once, so a send a
     * repair interrupted completes only once it was (replicated jobs; unreplicated ones have no repair).
     */
    public void matchedSynchronous(int commId, int source, long sendId) {
        if (acks != null) {
            acks.matchedSynchronous(commId, source, sendId);
        }
    }

    /**
     * A large payload offered from its sender's shared memory was received: copied from there ({@code pulled}), or
     * asked for and sent by the native library (another node).
     */
    public void receivedOffered(boolean pulled) {
        if (pulled) {
            pulledPayloads++;
        } else {
            pushedPayloads++;
        }
    }

    public long nativeMessages() { return nativeMessages; }
    public long nativeBytes() { return nativeBytes; }
    public long pulledPayloads() { return pulledPayloads; }
    public long pushedPayloads() { return pushedPayloads; }
}
