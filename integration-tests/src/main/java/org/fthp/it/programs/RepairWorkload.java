package org.fthp.it.programs;

/** What the repair test programs share: a mixing function that makes every value depend on every earlier one, and busy time that never changes a result. */
final class RepairWorkload {

    static volatile long sink;

    private RepairWorkload() {}

    static long mix(long a, long b) {
        long x = a ^ (b + 0x9E3779B97F4A7C15L + (a << 6) + (a >>> 2));
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        return x ^ (x >>> 29);
    }

    /** Busy for about {@code nanos}; what it computes is thrown away, so timing never changes a result. */
    static long compute(long state, long nanos) {
        long end = System.nanoTime() + nanos;
        long x = state;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 64; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
        return state;
    }
}
