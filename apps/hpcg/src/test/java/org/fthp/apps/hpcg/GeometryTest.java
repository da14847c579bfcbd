package org.fthp.apps.hpcg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GeometryTest {

    @Test
    void processShapesAreTheReferenceOnes() {
        // values from HPCG 3.1's ComputeOptimalShapeXYZ (checked against the C++ code)
        assertArrayEquals(new int[] {1, 1, 1}, ProcessShape.of(1));
        assertArrayEquals(new int[] {2, 1, 1}, ProcessShape.of(2));
        assertArrayEquals(new int[] {3, 1, 1}, ProcessShape.of(3));
        assertArrayEquals(new int[] {2, 2, 1}, ProcessShape.of(4));
        assertArrayEquals(new int[] {2, 3, 1}, ProcessShape.of(6));
        assertArrayEquals(new int[] {2, 2, 2}, ProcessShape.of(8));
        assertArrayEquals(new int[] {2, 3, 2}, ProcessShape.of(12));
        assertArrayEquals(new int[] {4, 2, 2}, ProcessShape.of(16));
        assertArrayEquals(new int[] {2, 3, 5}, ProcessShape.of(30));
        assertArrayEquals(new int[] {4, 4, 4}, ProcessShape.of(64));
    }

    @Test
    void everyShapeHoldsAllProcesses() {
        for (int n = 1; n <= 200; n++) {
            int[] s = ProcessShape.of(n);
            assertEquals(n, s[0] * s[1] * s[2], "n=" + n);
        }
    }

    @Test
    void ranksAreLaidOutXFastestAndOwnTheirRows() {
        int size = 12;
        for (int rank = 0; rank < size; rank++) {
            Geometry g = Geometry.create(size, rank, 16, 16, 16, 0, 0, 0);
            assertEquals(rank, g.ipx + g.ipy * g.npx + g.ipz * g.npx * g.npy);
            long first = g.giz0 * g.gnx * g.gny + g.giy0 * g.gnx + g.gix0;
            assertEquals(rank, g.rankOfRow(first));
            assertEquals(0, g.localRow(first));
            long last = (g.giz0 + 15) * g.gnx * g.gny + (g.giy0 + 15) * g.gnx + g.gix0 + 15;
            assertEquals(rank, g.rankOfRow(last));
            assertEquals(16 * 16 * 16 - 1, g.localRow(last));
        }
    }
}
