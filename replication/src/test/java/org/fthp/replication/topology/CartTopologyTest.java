package org.fthp.replication.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CartTopologyTest {

    private static final int PROC_NULL = -2;

    @Test
    void coordsAreRowMajorWithLastDimensionFastest() {
        CartTopology grid = new CartTopology(new int[] {2, 3}, new boolean[] {false, false});
        assertEquals(6, grid.size());
        assertArrayEquals(new int[] {0, 0}, grid.coords(0));
        assertArrayEquals(new int[] {0, 1}, grid.coords(1));
        assertArrayEquals(new int[] {0, 2}, grid.coords(2));
        assertArrayEquals(new int[] {1, 0}, grid.coords(3));
        assertArrayEquals(new int[] {1, 2}, grid.coords(5));
    }

    @Test
    void rankInvertsCoords() {
        CartTopology grid = new CartTopology(new int[] {3, 2, 4}, new boolean[] {false, true, false});
        for (int r = 0; r < grid.size(); r++) {
            assertEquals(r, grid.rank(grid.coords(r)));
        }
    }

    @Test
    void periodicCoordinatesWrapInBothDirections() {
        CartTopology grid = new CartTopology(new int[] {2, 3}, new boolean[] {false, true});
        assertEquals(grid.rank(new int[] {1, 0}), grid.rank(new int[] {1, 3}));
        assertEquals(grid.rank(new int[] {1, 2}), grid.rank(new int[] {1, -1}));
        assertEquals(grid.rank(new int[] {0, 1}), grid.rank(new int[] {0, -5}));
    }

    @Test
    void nonPeriodicOutOfRangeIsRejected() {
        CartTopology grid = new CartTopology(new int[] {2, 3}, new boolean[] {false, true});
        assertThrows(IllegalArgumentException.class, () -> grid.rank(new int[] {2, 0}));
        assertThrows(IllegalArgumentException.class, () -> grid.rank(new int[] {-1, 0}));
        assertThrows(IllegalArgumentException.class, () -> grid.rank(new int[] {0}));
        assertThrows(IllegalArgumentException.class, () -> grid.coords(6));
    }

    @Test
    void shiftOnNonPeriodicDimensionFallsOffTheEdge() {
        CartTopology line = new CartTopology(new int[] {4}, new boolean[] {false});
        assertArrayEquals(new int[] {PROC_NULL, 1}, line.shift(0, 0, 1, PROC_NULL));
        assertArrayEquals(new int[] {1, 3}, line.shift(2, 0, 1, PROC_NULL));
        assertArrayEquals(new int[] {2, PROC_NULL}, line.shift(3, 0, 1, PROC_NULL));
        assertArrayEquals(new int[] {3, 1}, line.shift(2, 0, -1, PROC_NULL));
        assertArrayEquals(new int[] {PROC_NULL, PROC_NULL}, line.shift(1, 0, 5, PROC_NULL));
        assertArrayEquals(new int[] {1, 1}, line.shift(1, 0, 0, PROC_NULL));
    }

    @Test
    void shiftOnPeriodicDimensionWraps() {
        CartTopology ring = new CartTopology(new int[] {4}, new boolean[] {true});
        assertArrayEquals(new int[] {3, 1}, ring.shift(0, 0, 1, PROC_NULL));
        assertArrayEquals(new int[] {2, 0}, ring.shift(3, 0, 1, PROC_NULL));
        assertArrayEquals(new int[] {1, 1}, ring.shift(3, 0, 2, PROC_NULL));
        assertArrayEquals(new int[] {2, 0}, ring.shift(1, 0, 7, PROC_NULL)); // 7 = 3 mod 4
    }

    @Test
    void shiftMovesOnlyAlongTheRequestedDimension() {
        // 2 x 3 grid, periodic in the second dimension only.
        CartTopology grid = new CartTopology(new int[] {2, 3}, new boolean[] {false, true});
        int rank = grid.rank(new int[] {0, 2});
        assertArrayEquals(new int[] {PROC_NULL, grid.rank(new int[] {1, 2})}, grid.shift(rank, 0, 1, PROC_NULL));
        assertArrayEquals(new int[] {grid.rank(new int[] {0, 1}), grid.rank(new int[] {0, 0})},
                grid.shift(rank, 1, 1, PROC_NULL));
        assertThrows(IllegalArgumentException.class, () -> grid.shift(rank, 2, 1, PROC_NULL));
    }

    @Test
    void subKeepsSelectedDimensionsAndSplitsConsistently() {
        CartTopology grid = new CartTopology(new int[] {2, 3, 4}, new boolean[] {true, false, true});
        CartTopology.Sub rows = grid.sub(new boolean[] {false, true, true});
        assertArrayEquals(new int[] {3, 4}, rows.topology().dims());
        assertArrayEquals(new boolean[] {false, true}, rows.topology().periods());
        assertEquals(2, rows.count());
        for (int r = 0; r < grid.size(); r++) {
            int[] c = grid.coords(r);
            assertEquals(c[0], rows.color(r));
            assertEquals(rows.topology().rank(new int[] {c[1], c[2]}), rows.key(r));
        }

        CartTopology.Sub middle = grid.sub(new boolean[] {false, true, false});
        assertArrayEquals(new int[] {3}, middle.topology().dims());
        assertEquals(8, middle.count());
        int r = grid.rank(new int[] {1, 2, 3});
        assertEquals(1 * 4 + 3, middle.color(r));
        assertEquals(2, middle.key(r));
    }

    @Test
    void subWithNothingKeptGivesSingletonGrids() {
        CartTopology grid = new CartTopology(new int[] {2, 3}, new boolean[] {false, false});
        CartTopology.Sub none = grid.sub(new boolean[] {false, false});
        assertEquals(0, none.topology().ndims());
        assertEquals(1, none.topology().size());
        assertEquals(6, none.count());
        for (int r = 0; r < grid.size(); r++) {
            assertEquals(r, none.color(r));
            assertEquals(0, none.key(r));
        }
    }

    @Test
    void subWithEverythingKeptIsTheSameGrid() {
        CartTopology grid = new CartTopology(new int[] {2, 3}, new boolean[] {true, false});
        CartTopology.Sub all = grid.sub(new boolean[] {true, true});
        assertEquals(grid, all.topology());
        for (int r = 0; r < grid.size(); r++) {
            assertEquals(0, all.color(r));
            assertEquals(r, all.key(r));
        }
    }

    @Test
    void constructorValidates() {
        assertThrows(IllegalArgumentException.class, () -> new CartTopology(new int[] {2, 0}, new boolean[2]));
        assertThrows(IllegalArgumentException.class, () -> new CartTopology(new int[] {2}, new boolean[2]));
        assertThrows(IllegalArgumentException.class,
                () -> new CartTopology(new int[] {65536, 65536}, new boolean[2]));
        assertEquals(1, new CartTopology(new int[0], new boolean[0]).size());
    }

    @Test
    void topologyIsImmutable() {
        int[] dims = {2, 2};
        CartTopology grid = new CartTopology(dims, new boolean[2]);
        dims[0] = 5;
        grid.dims()[1] = 7;
        assertArrayEquals(new int[] {2, 2}, grid.dims());
    }

    // --- dimsCreate: expected values are Open MPI 4.1's ---

    @Test
    void dimsCreateMatchesOpenMpi() {
        assertArrayEquals(new int[] {4, 3}, CartTopology.dimsCreate(12, new int[2]));
        assertArrayEquals(new int[] {4, 2, 2}, CartTopology.dimsCreate(16, new int[3]));
        assertArrayEquals(new int[] {2, 2, 2}, CartTopology.dimsCreate(8, new int[3]));
        assertArrayEquals(new int[] {3, 2}, CartTopology.dimsCreate(6, new int[2]));
        assertArrayEquals(new int[] {7, 1}, CartTopology.dimsCreate(7, new int[2]));
        assertArrayEquals(new int[] {3, 3}, CartTopology.dimsCreate(9, new int[2]));
        assertArrayEquals(new int[] {5, 5}, CartTopology.dimsCreate(25, new int[2]));
        assertArrayEquals(new int[] {4, 4}, CartTopology.dimsCreate(16, new int[2]));
        assertArrayEquals(new int[] {6, 5}, CartTopology.dimsCreate(30, new int[2]));
        assertArrayEquals(new int[] {12, 6}, CartTopology.dimsCreate(72, new int[2])); // greedy, not 9x8
        assertArrayEquals(new int[] {1}, CartTopology.dimsCreate(1, new int[1]));
        assertArrayEquals(new int[] {1, 1, 1}, CartTopology.dimsCreate(1, new int[3]));
        assertArrayEquals(new int[] {5}, CartTopology.dimsCreate(5, new int[1]));
        assertArrayEquals(new int[] {3, 2, 2, 1}, CartTopology.dimsCreate(12, new int[4]));
    }

    @Test
    void dimsCreateKeepsFixedEntries() {
        assertArrayEquals(new int[] {2, 3, 2}, CartTopology.dimsCreate(12, new int[] {2, 0, 0}));
        assertArrayEquals(new int[] {3, 3, 2}, CartTopology.dimsCreate(18, new int[] {0, 3, 0}));
        assertArrayEquals(new int[] {6, 4}, CartTopology.dimsCreate(24, new int[] {6, 0}));
        assertArrayEquals(new int[] {4, 3}, CartTopology.dimsCreate(12, new int[] {4, 3}));
    }

    @Test
    void dimsCreateFillsInPlace() {
        int[] dims = new int[2];
        assertSame(dims, CartTopology.dimsCreate(6, dims));
        assertArrayEquals(new int[] {3, 2}, dims);
    }

    @Test
    void dimsCreateRejectsImpossibleRequests() {
        assertThrows(IllegalArgumentException.class, () -> CartTopology.dimsCreate(12, new int[] {5, 0}));
        assertThrows(IllegalArgumentException.class, () -> CartTopology.dimsCreate(12, new int[] {4, 4, 0}));
        assertThrows(IllegalArgumentException.class, () -> CartTopology.dimsCreate(12, new int[] {2, 4}));
        assertThrows(IllegalArgumentException.class, () -> CartTopology.dimsCreate(12, new int[] {-1, 0}));
        assertThrows(IllegalArgumentException.class, () -> CartTopology.dimsCreate(0, new int[2]));
        assertThrows(IllegalArgumentException.class, () -> CartTopology.dimsCreate(2, new int[0]));
        assertArrayEquals(new int[0], CartTopology.dimsCreate(1, new int[0]));
    }

    @Test
    void dimsCreateProductAlwaysMatchesAndIsNonIncreasing() {
        for (int n = 1; n <= 200; n++) {
            for (int nd = 1; nd <= 4; nd++) {
                int[] dims = CartTopology.dimsCreate(n, new int[nd]);
                int product = 1;
                for (int i = 0; i < nd; i++) {
                    product *= dims[i];
                    if (i > 0) {
                        assertEquals(true, dims[i - 1] >= dims[i], n + " " + java.util.Arrays.toString(dims));
                    }
                }
                assertEquals(n, product);
            }
        }
    }

    @Test
    void primeFactorsAscending() {
        assertArrayEquals(new int[] {2, 2, 3}, CartTopology.primeFactorsAscending(12));
        assertArrayEquals(new int[] {3, 3}, CartTopology.primeFactorsAscending(9));
        assertArrayEquals(new int[] {2147483647}, CartTopology.primeFactorsAscending(Integer.MAX_VALUE));
        assertArrayEquals(new int[0], CartTopology.primeFactorsAscending(1));
    }
}
