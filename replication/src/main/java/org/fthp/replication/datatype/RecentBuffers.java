package org.fthp.replication.datatype;

/**
 * The program's small arrays and direct buffers met lately, each with its {@link UserBuffer}: a loop that sends
 * and receives the same few arrays or buffers wraps each once instead of on every call. A wrap is up to three
 * objects (the buffer, a memory segment and the session the JDK gives every heap segment), about a hundred
 * bytes and a few constructors per call on the small-message path; a lookup is a few reference compares.
 *
 * <p>Only arrays and direct buffers up to {@link #MAX_BYTES} are kept, and only {@link #SLOTS} of them: the kept ones stay
 * reachable until newer ones replace them, which for arrays this small costs at most a few hundred kilobytes;
 * wrapping a large array costs nothing next to moving its bytes. Entries are immutable and a slot is one
 * reference, so a call racing another (outside the gate) reads a whole entry or misses.
 */
public final class RecentBuffers {

    /** How many arrays are kept (a power of two): a halo exchange's send and receive arrays on several sides. */
    static final int SLOTS = 8;

    /** The largest array or direct buffer kept. */
    static final long MAX_BYTES = 64 << 10;

    private final UserBuffer[] slots = new UserBuffer[SLOTS];
    /** The slot the last lookup found or filled: a loop over one array hits it first. */
    private int last;
    private int next;

    /** {@code buf} wrapped ({@link UserBuffer#of}): the kept wrap of the same array or buffer if there is one. */
    public UserBuffer of(Object buf) {
        UserBuffer hit = slots[last];
        if (hit != null && hit.key() == buf) {
            return hit;
        }
        for (int k = 0; k < SLOTS; k++) {
            hit = slots[k];
            if (hit != null && hit.key() == buf) {
                last = k;
                return hit;
            }
        }
        UserBuffer made = UserBuffer.of(buf);
        if (made != null && made.key() != null && made.bytes() <= MAX_BYTES) {
            int k = next;
            slots[k] = made;
            last = k;
            next = (k + 1) & (SLOTS - 1);
        }
        return made;
    }
}
