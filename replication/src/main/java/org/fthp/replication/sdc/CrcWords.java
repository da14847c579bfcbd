package org.fthp.replication.sdc;

import java.nio.ByteOrder;

/**
 * CRC32C (Castagnoli, reflected) of whole 8-byte words in plain arithmetic, in the register form the JDK's and the
 * kernel's share: what a send's or a contribution's envelope needs where no native call folds it. Slicing by 8:
 * each word is eight independent table lookups xored together, so a word costs about one load's latency, where a
 * byte-at-a-time table chains eight dependent loads per word.
 */
final class CrcWords {

    private CrcWords() {}

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    /** {@code SLICE[t][i]}: the register contribution of byte {@code i} followed by {@code t} zero bytes. */
    private static final int[][] SLICE = new int[8][256];
    private static final int[] T0 = SLICE[0];
    private static final int[] T1 = SLICE[1];
    private static final int[] T2 = SLICE[2];
    private static final int[] T3 = SLICE[3];
    private static final int[] T4 = SLICE[4];
    private static final int[] T5 = SLICE[5];
    private static final int[] T6 = SLICE[6];
    private static final int[] T7 = SLICE[7];

    static {
        for (int i = 0; i < 256; i++) {
            int r = i;
            for (int k = 0; k < 8; k++) {
                r = (r >>> 1) ^ (0x82F63B78 & -(r & 1));
            }
            T0[i] = r;
        }
        for (int t = 1; t < 8; t++) {
            for (int i = 0; i < 256; i++) {
                SLICE[t][i] = (SLICE[t - 1][i] >>> 8) ^ T0[SLICE[t - 1][i] & 0xff];
            }
        }
    }

    /** Register {@code r} with a send's envelope: {@code a}, {@code b}, {@code c}, four zero bytes, {@code len}. */
    static int envelope(int r, int a, int b, int c, long len) {
        r = fold(r, ints(a, b));
        r = fold(r, ints(c, 0));
        return word(r, len);
    }

    /** Register {@code r} with {@code v}'s eight bytes in native order. */
    static int word(int r, long v) {
        return fold(r, LITTLE_ENDIAN ? v : Long.reverseBytes(v));
    }

    /** Eight bytes laid out as {@code first} then {@code second} in native order, read as a little-endian long. */
    private static long ints(int first, int second) {
        return LITTLE_ENDIAN ? (first & 0xFFFFFFFFL) | ((long) second << 32)
                : Long.reverseBytes(((long) first << 32) | (second & 0xFFFFFFFFL));
    }

    /**
     * Register {@code r} with eight bytes folded in, {@code v} their little-endian reading: a reflected CRC takes
     * the first byte in its low bits, so the register xored in and each byte looked up by its distance from the
     * end fold all eight at once.
     */
    private static int fold(int r, long v) {
        long x = v ^ (r & 0xFFFFFFFFL);
        return T7[(int) x & 0xff] ^ T6[(int) (x >>> 8) & 0xff] ^ T5[(int) (x >>> 16) & 0xff]
                ^ T4[(int) (x >>> 24) & 0xff] ^ T3[(int) (x >>> 32) & 0xff] ^ T2[(int) (x >>> 40) & 0xff]
                ^ T1[(int) (x >>> 48) & 0xff] ^ T0[(int) (x >>> 56) & 0xff];
    }
}
