package org.fthp.replication.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DistGraphContributionTest {

    /** Arrays sized for the worst case, as programs written for Open MPI's binding pass them. */
    @Test
    void readsOnlyWhatTheCallReads() {
        DistGraphContribution c = DistGraphContribution.of(new int[] {2}, new int[] {2, 9, 9, 9},
                new int[] {0, 1, 7, 7}, new int[] {5, 6, 8, 8});
        assertArrayEquals(new int[] {2}, c.sources());
        assertArrayEquals(new int[] {2}, c.degrees());
        assertArrayEquals(new int[] {0, 1}, c.destinations());
        assertArrayEquals(new int[] {5, 6}, c.weights());
        assertArrayEquals(new int[] {1, 2, 1}, c.header());
        assertArrayEquals(new int[] {2, 2, 0, 1, 5, 6}, c.body());
    }

    @Test
    void shortArraysAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> DistGraphContribution.of(new int[] {0, 1}, new int[] {1}, new int[] {1}, null));
        assertThrows(IllegalArgumentException.class,
                () -> DistGraphContribution.of(new int[] {0}, new int[] {2}, new int[] {1}, null));
        assertThrows(IllegalArgumentException.class,
                () -> DistGraphContribution.of(new int[] {0}, new int[] {2}, new int[] {1, 2}, new int[] {3}));
        assertThrows(IllegalArgumentException.class,
                () -> DistGraphContribution.of(new int[] {0}, new int[] {-1}, new int[0], null));
        assertThrows(IllegalArgumentException.class,
                () -> DistGraphContribution.of(null, new int[0], new int[0], null));
    }

    /**
     * Three processes: 0 describes the ring 0->1->2->0 weighted, 1 and 2 give
     * no edges (but a weight array, as in a weighted call). Encoded, laid end
     * to end as the allgatherv would, decoded: each process sees its ring neighbours.
     */
    @Test
    void roundTripThroughTheWireForm() {
        DistGraphContribution[] given = {
            DistGraphContribution.of(new int[] {0, 1, 2, 0}, new int[] {1, 1, 1, 0, 0}, new int[] {1, 2, 0, 0},
                    new int[] {10, 11, 12, 0}),
            DistGraphContribution.of(new int[0], new int[4], new int[4], new int[4]),
            DistGraphContribution.of(new int[0], new int[0], new int[0], new int[0]),
        };
        int[] headers = new int[3 * DistGraphContribution.HEADER_INTS];
        int total = 0;
        for (int p = 0; p < 3; p++) {
            System.arraycopy(given[p].header(), 0, headers, p * DistGraphContribution.HEADER_INTS,
                    DistGraphContribution.HEADER_INTS);
            total += DistGraphContribution.bodyInts(headers, p);
        }
        int[] bodies = new int[total];
        int[] displs = new int[3];
        int at = 0;
        for (int p = 0; p < 3; p++) {
            displs[p] = at;
            int[] b = given[p].body();
            assertEquals(DistGraphContribution.bodyInts(headers, p), b.length);
            System.arraycopy(b, 0, bodies, at, b.length);
            at += b.length;
        }
        DistGraphContribution[] decoded = new DistGraphContribution[3];
        for (int p = 0; p < 3; p++) {
            decoded[p] = DistGraphContribution.decode(headers, p, bodies, displs[p]);
        }
        DistGraphTopology one = DistGraphContribution.topology(1, decoded);
        assertTrue(one.isWeighted());
        assertArrayEquals(new int[] {0}, one.sources());
        assertArrayEquals(new int[] {10}, one.sourceWeights());
        assertArrayEquals(new int[] {2}, one.destinations());
        assertArrayEquals(new int[] {11}, one.destWeights());
        DistGraphTopology zero = DistGraphContribution.topology(0, decoded);
        assertArrayEquals(new int[] {2}, zero.sources());
        assertArrayEquals(new int[] {12}, zero.sourceWeights());
    }

    @Test
    void unweightedWhenNoProcessGaveWeights() {
        DistGraphContribution[] given = {
            DistGraphContribution.of(new int[] {0}, new int[] {1}, new int[] {1}, null),
            DistGraphContribution.of(new int[0], new int[0], new int[0], null),
        };
        DistGraphTopology t = DistGraphContribution.topology(1, given);
        assertFalse(t.isWeighted());
        assertNull(t.sourceWeights());
        assertArrayEquals(new int[] {0}, t.sources());
    }

    @Test
    void anInvalidProcessIsNamedWhenDecoded() {
        int[] headers = new int[2 * DistGraphContribution.HEADER_INTS];
        System.arraycopy(DistGraphContribution.invalidHeader(), 0, headers, DistGraphContribution.HEADER_INTS,
                DistGraphContribution.HEADER_INTS);
        assertTrue(DistGraphContribution.isInvalid(headers, 1));
        assertEquals(0, DistGraphContribution.bodyInts(headers, 1));
        assertThrows(IllegalArgumentException.class, () -> DistGraphContribution.decode(headers, 1, new int[0], 0));
    }
}
