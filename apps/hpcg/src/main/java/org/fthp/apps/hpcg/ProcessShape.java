package org.fthp.apps.hpcg;

import java.util.Map;
import java.util.TreeMap;

/**
 * Factors the number of processes into a px × py × pz grid as HPCG 3.1's ComputeOptimalShapeXYZ
 * does: special cases for one, two and three prime factors, otherwise the split with the least
 * surface area among all ways to distribute the prime factors over x and y (z takes the rest).
 * The same input gives the same grid as the reference, so rank coordinates match it too.
 */
final class ProcessShape {

    private ProcessShape() {}

    /** @return {x, y, z} with x*y*z == n */
    static int[] of(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("number of processes must be positive: " + n);
        }
        TreeMap<Integer, Integer> factors = primeFactors(n);
        Integer[] distinct = factors.keySet().toArray(new Integer[0]);
        int x = distinct[0];
        int y = distinct.length > 1 ? distinct[1] : 1;
        int z;
        if (factors.size() == 1) {
            int c = factors.get(x);
            z = pow(x, c / 3);
            y = pow(x, c / 3 + ((c % 3) >= 2 ? 1 : 0));
            x = pow(x, c / 3 + ((c % 3) >= 1 ? 1 : 0));
        } else if (factors.size() == 2 && factors.get(x) == 1 && factors.get(y) == 1) {
            z = 1;
        } else if (factors.size() == 2 && factors.get(x) + factors.get(y) == 3) {
            z = factors.get(x) == 2 ? x : y;
        } else if (factors.size() == 3 && factors.get(x) == 1 && factors.get(y) == 1
                && factors.get(distinct[2]) == 1) {
            z = distinct[2];
        } else {
            return minimumArea(n, factors);
        }
        return new int[] {x, y, z};
    }

    /** Tries every split of the prime factors into (x, y, rest) and keeps the least surface area. */
    private static int[] minimumArea(int n, TreeMap<Integer, Integer> factors) {
        int k = factors.size();
        int[] primes = new int[k];
        int[] counts = new int[k];
        int i = 0;
        for (Map.Entry<Integer, Integer> e : factors.entrySet()) {
            primes[i] = e.getKey();
            counts[i++] = e.getValue();
        }
        double minArea = 2.0 * n + 1.0;
        int[] best = {n, 1, 1};
        int[] c1 = new int[k];
        // mixed-base counters: c1 over all sub-multisets of the factors, c2 over what c1 left
        for (next(c1, counts); !isZero(c1); next(c1, counts)) {
            int[] rest = new int[k];
            for (int j = 0; j < k; j++) {
                rest[j] = counts[j] - c1[j];
            }
            int[] c2 = new int[k];
            for (next(c2, rest); !isZero(c2); next(c2, rest)) {
                int f1 = product(c1, primes);
                int f2 = product(c2, primes);
                int f3 = n / f1 / f2;
                double area = f1 * (double) f2 + f2 * (double) f3 + f1 * (double) f3;
                if (area < minArea) {
                    minArea = area;
                    best = new int[] {f1, f2, f3};
                }
            }
        }
        return best;
    }

    private static void next(int[] cur, int[] max) {
        for (int i = 0; i < cur.length; i++) {
            if (++cur[i] > max[i]) {
                cur[i] = 0;
                continue;
            }
            break;
        }
    }

    private static boolean isZero(int[] cur) {
        for (int c : cur) {
            if (c != 0) {
                return false;
            }
        }
        return true;
    }

    private static int product(int[] cur, int[] primes) {
        int x = 1;
        for (int i = 0; i < cur.length; i++) {
            for (int j = 0; j < cur[i]; j++) {
                x *= primes[i];
            }
        }
        return x;
    }

    private static TreeMap<Integer, Integer> primeFactors(int n) {
        TreeMap<Integer, Integer> f = new TreeMap<>();
        int sq = (int) Math.sqrt(n) + 1;
        for (; n > 1 && (n & 1) == 0; n >>= 1) {
            f.merge(2, 1, Integer::sum);
        }
        for (int d = 3; d <= sq; d += 2) {
            while (n % d == 0) {
                f.merge(d, 1, Integer::sum);
                n /= d;
            }
        }
        if (n > 1 || f.isEmpty()) {
            f.merge(n, 1, Integer::sum);
        }
        return f;
    }

    private static int pow(int x, int p) {
        int v = 1;
        for (int i = 0; i < p; i++) {
            v *= x;
        }
        return v;
    }
}
