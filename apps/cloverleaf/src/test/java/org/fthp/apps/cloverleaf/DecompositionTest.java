package org.fthp.apps.cloverleaf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DecompositionTest {

    /** Splits worked out by hand from the reference's clover_decompose. */
    @ParameterizedTest(name = "{0}x{1} cells on {2} ranks -> {3}x{4}")
    @CsvSource({
        "960, 960, 1, 1, 1",
        "960, 960, 2, 2, 1",   // 1x2 is found first, then treated as a 1D split along the longer (equal) axis
        "960, 960, 3, 3, 1",   // prime
        "960, 960, 4, 2, 2",
        "960, 960, 6, 2, 3",
        "960, 960, 8, 2, 4",
        "10, 2, 2, 2, 1",
        "10, 2, 4, 4, 1",
        "2, 10, 4, 1, 4",
        "100, 50, 8, 4, 2",
    })
    void splitsLikeTheReference(int x, int y, int ranks, int cx, int cy) {
        Decomposition d = new Decomposition(x, y, ranks);
        assertEquals(cx, d.chunksX);
        assertEquals(cy, d.chunksY);
        // the chunks tile the mesh exactly, the first columns/rows taking the remainder
        long cells = 0;
        for (int r = 0; r < ranks; r++) {
            Chunk c = d.chunkOf(r, x, y);
            cells += c.cells();
            int[] n = d.neighbours(r);
            if (n[Decomposition.RIGHT] != Decomposition.EXTERNAL) {
                assertEquals(c.right + 1, d.chunkOf(n[Decomposition.RIGHT], x, y).left);
            }
            if (n[Decomposition.TOP] != Decomposition.EXTERNAL) {
                assertEquals(c.top + 1, d.chunkOf(n[Decomposition.TOP], x, y).bottom);
            }
        }
        assertEquals((long) x * y, cells);
    }

    @ParameterizedTest
    @CsvSource({"10, 4, 0, 1, 3", "10, 4, 1, 4, 6", "10, 4, 2, 7, 8", "10, 4, 3, 9, 10"})
    void remainderGoesToTheFirstParts(int cells, int parts, int i, int first, int last) {
        assertArrayEquals(new int[] {first, last}, Decomposition.range(cells, parts, i));
    }

    @ParameterizedTest
    @CsvSource({"0, -1, 1, -1, 2", "3, 2, -1, 1, -1"})
    void neighboursOnATwoByTwoGrid(int rank, int left, int right, int bottom, int top) {
        Decomposition d = new Decomposition(8, 8, 4);
        assertArrayEquals(new int[] {left, right, bottom, top}, d.neighbours(rank));
    }

    @ParameterizedTest
    @CsvSource({"4, 4, 9", "3, 3, 2"})
    void refusesChunksThinnerThanTheHalo(int x, int y, int ranks) {
        assertThrows(IllegalArgumentException.class, () -> new Decomposition(x, y, ranks));
    }
}
