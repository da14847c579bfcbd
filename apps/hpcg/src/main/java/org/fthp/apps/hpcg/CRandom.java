package org.fthp.apps.hpcg;

/**
 * The C library's {@code rand()} as glibc computes it from its default seed (1): an additive
 * lagged-Fibonacci generator over a table seeded by a Lehmer sequence. FillRandomVector draws
 * from it, so the symmetry test here starts from the very vectors the C++ reference uses.
 */
final class CRandom {
    static final int RAND_MAX = Integer.MAX_VALUE;

    private final int[] r = new int[34];
    private int pos;

    CRandom() {
        this(1);
    }

    CRandom(int seed) {
        int[] init = new int[31];
        init[0] = seed == 0 ? 1 : seed;
        for (int i = 1; i < 31; i++) {
            // 16807 * previous mod (2^31 - 1), by Schrage's method as glibc does
            long hi = init[i - 1] / 127773;
            long lo = init[i - 1] % 127773;
            long word = 16807 * lo - 2836 * hi;
            if (word < 0) {
                word += 2147483647;
            }
            init[i] = (int) word;
        }
        int[] ring = new int[34];
        System.arraycopy(init, 0, ring, 0, 31);
        for (int i = 31; i < 34; i++) {
            ring[i] = ring[i - 31];
        }
        System.arraycopy(ring, 0, r, 0, 34);
        pos = 34;
        // glibc discards the first 310 outputs
        for (int i = 0; i < 310; i++) {
            step();
        }
    }

    private int step() {
        // o_k = o_{k-31} + o_{k-3} (mod 2^32), kept in a 34-slot ring
        int v = r[(pos - 31) % 34] + r[(pos - 3) % 34];
        r[pos % 34] = v;
        pos++;
        if (pos >= 34 * 1_000_000) {
            pos = pos % 34 + 34;
        }
        return v;
    }

    /** Next value of rand(): 0 .. RAND_MAX. */
    int next() {
        return step() >>> 1;
    }

    /** FillRandomVector: every entry rand()/RAND_MAX + 1. */
    void fill(double[] v) {
        for (int i = 0; i < v.length; i++) {
            v[i] = next() / (double) RAND_MAX + 1;
        }
    }
}
