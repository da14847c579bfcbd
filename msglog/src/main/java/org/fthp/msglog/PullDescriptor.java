package org.fthp.msglog;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where a large payload waits in its sender's shared memory: what a message
 * flagged {@link MessageHeader#FLAG_PULL} carries on the internal channel
 * instead of the payload. The receiver opens the sender's memory file through
 * {@code /proc/<pid>/fd/<fd>}, checks that its first page holds
 * {@code token} (so a process of the same pid on another node, or a later
 * process reusing the pid, is never read), and copies {@code length} bytes
 * from {@code offset}. Only a receiver in the sender's network namespace
 * ({@code node}) tries: one in another is on another host, or in an emulated
 * one, which should see what a real one would.
 *
 * <pre>
 *  0  int  pid     the sender's process id
 *  4  int  fd      its memory file's descriptor
 *  8  long token   the random number at the file's start
 * 16  long offset  where the payload starts in the file
 * 24  long length  the payload's bytes
 * 32  long node    the inode of the sender's network namespace
 * </pre>
 *
 * <p>The receiver's reply (an {@code int}, on the internal channel) says which
 * way the payload went: {@link #REPLY_PULLED}, after which the sender may reuse
 * the memory, or {@link #REPLY_PUSH}, after which the sender sends the payload
 * as a native message on the payload's tag.
 */
public final class PullDescriptor {

    public static final int BYTES = 40;

    /** The receiver copied the payload (or took none of it: a truncated receive). */
    public static final int REPLY_PULLED = 1;
    /** The receiver cannot read the sender's memory: send the payload. */
    public static final int REPLY_PUSH = 2;

    private static final long PID = 0;
    private static final long FD = 4;
    private static final long TOKEN = 8;
    private static final long OFFSET = 16;
    private static final long LENGTH = 24;
    private static final long NODE = 32;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private PullDescriptor() {}

    public static void write(MemorySegment seg, int pid, int fd, long token, long offset, long length, long node) {
        seg.set(INT, PID, pid);
        seg.set(INT, FD, fd);
        seg.set(LONG, TOKEN, token);
        seg.set(LONG, OFFSET, offset);
        seg.set(LONG, LENGTH, length);
        seg.set(LONG, NODE, node);
    }

    public static int pid(MemorySegment seg) { return seg.get(INT, PID); }
    public static int fd(MemorySegment seg) { return seg.get(INT, FD); }
    public static long token(MemorySegment seg) { return seg.get(LONG, TOKEN); }
    public static long offset(MemorySegment seg) { return seg.get(LONG, OFFSET); }
    public static long length(MemorySegment seg) { return seg.get(LONG, LENGTH); }
    public static long node(MemorySegment seg) { return seg.get(LONG, NODE); }
}
