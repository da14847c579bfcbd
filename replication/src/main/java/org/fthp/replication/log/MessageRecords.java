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

    /** Bytes a process's send log may hold before it evicts (until trimming by acknowledgements exists). */
    public static final long LOG_LIMIT_BYTES = Long.getLong("fthp.log.limitBytes", 512L << 20);

    private MessageRecords(boolean logging) {
        this.sendLog = logging ? new SendLog(LOG_LIMIT_BYTES) : null;
        this.receiveLog = logging ? new ReceiveLog() : null;
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

    public void consumed(int commId, int source, long sendId) {
        if (receiveLog != null) {
            receiveLog.consumed(commId, source, sendId);
        }
    }

    public long nativeMessages() { return nativeMessages; }
    public long nativeBytes() { return nativeBytes; }
}
