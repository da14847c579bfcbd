package org.fthp.msglog;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The header every point-to-point payload carries on the wire (docs/DESIGN.md §8),
 * written in front of the packed user data in the same staging segment, so
 * header and data travel as one native message.
 *
 * <pre>
 *  0  int  communicator id   (same on every member and on both twins)
 *  4  int  logical source    (rank in the user's communicator)
 *  8  long send id           (per communicator and source→destination pair)
 * 16  int  flags             ({@link #FLAG_RENDEZVOUS}, {@link #FLAG_INTERNAL}, {@link #FLAG_SYNCHRONOUS},
 *                            {@link #FLAG_PULL})
 * 20  int  payload bytes     (packed user data that follows the header)
 * </pre>
 *
 * <p>The native tag stays the user's tag, so the native library's matching and
 * non-overtaking rules hold unchanged.
 */
public final class MessageHeader {

    public static final int BYTES = 24;

    /**
     * The payload does not follow in this message: it travels as a message of
     * its own on the communicator's internal channel, tagged with
     * {@link #payloadTag(long)}, so it can land straight in the receiver's
     * memory instead of passing through staging.
     */
    public static final int FLAG_RENDEZVOUS = 1;

    /**
     * The message is the facade's own (the communicator's internal channel),
     * so a resend after a repair goes back on that channel.
     */
    public static final int FLAG_INTERNAL = 2;

    /**
     * Sent by a synchronous send: the receiver tells every live copy of the
     * sender when it matches it, so the send can complete once a live copy of
     * its destination matched it, through any repair (a resend from the log
     * keeps the flag).
     */
    public static final int FLAG_SYNCHRONOUS = 4;

    /**
     * With {@link #FLAG_RENDEZVOUS}: the message on the internal channel is not
     * the payload but a {@link PullDescriptor}, saying where in the sender's
     * shared memory the payload waits. A receiver on the sender's node copies
     * it from there and replies (msglog.PullDescriptor#REPLY_PULLED); any other
     * asks for the payload itself ({@code REPLY_PUSH}), which then follows on
     * the same tag.
     */
    public static final int FLAG_PULL = 8;

    /** The tag of a rendezvous payload: unique per sender and communicator while fewer than 2^20 are in flight. */
    public static int payloadTag(long sendId) {
        return (1 << 20) | (int) (sendId & ((1 << 20) - 1));
    }

    private static final long COMM_ID = 0;
    private static final long SOURCE = 4;
    private static final long SEND_ID = 8;
    private static final long FLAGS = 16;
    private static final long PAYLOAD = 20;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private MessageHeader() {}

    /**
     * Writes the header: three long stores, each two adjacent ints of the layout above in native order (every
     * store into a segment pays its checks, and every small message writes a header).
     */
    public static void write(MemorySegment seg, int commId, int logicalSource, long sendId, int flags, int payloadBytes) {
        seg.set(LONG, COMM_ID, pair(commId, logicalSource));
        seg.set(LONG, SEND_ID, sendId);
        seg.set(LONG, FLAGS, pair(flags, payloadBytes));
    }

    /** The long whose native-order bytes are {@code first}'s, then {@code second}'s. */
    private static long pair(int first, int second) {
        long a = first & 0xFFFF_FFFFL;
        long b = second & 0xFFFF_FFFFL;
        return LITTLE_ENDIAN ? a | b << 32 : a << 32 | b;
    }

    public static int commId(MemorySegment seg) { return seg.get(INT, COMM_ID); }
    public static int logicalSource(MemorySegment seg) { return seg.get(INT, SOURCE); }
    public static long sendId(MemorySegment seg) { return seg.get(LONG, SEND_ID); }
    public static int flags(MemorySegment seg) { return seg.get(INT, FLAGS); }
    public static int payloadBytes(MemorySegment seg) { return seg.get(INT, PAYLOAD); }
}
