package org.fthp.checkpoint.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class KeptArraysTest {

    @Test
    void anArrayZeroedInTheBackgroundIsHandedBackZeroed() {
        KeptArrays kept = new KeptArrays();
        double[] state = new double[1 << 20];
        Arrays.fill(state, 7.5);
        kept.keep("state", state);
        kept.settled();
        assertSame(state, kept.take("state", double[].class, state.length));
        assertArrayEquals(new double[state.length], state);
    }

    @Test
    void anArrayNoZeroingWasStartedForIsZeroedWhenTaken() {
        KeptArrays kept = new KeptArrays();
        int[] counts = {1, 2, 3};
        kept.keep("counts", counts);
        assertSame(counts, kept.take("counts", int[].class, 3));
        assertArrayEquals(new int[3], counts);
    }

    @Test
    void anotherTypeOrLengthOrNameGetsNothingAndTheKeptArrayIsGone() {
        KeptArrays kept = new KeptArrays();
        kept.keep("a", new long[4]);
        kept.keep("b", new long[4]);
        kept.keep("c", new long[4]);
        assertNull(kept.take("a", int[].class, 4));
        assertNull(kept.take("b", long[].class, 5));
        assertNull(kept.take("d", long[].class, 4));
        assertNull(kept.take("a", long[].class, 4), "taken once, even when refused");
        kept.clear();
        assertNull(kept.take("c", long[].class, 4), "cleared");
    }

    @Test
    void aSecondRollbackBeforeTheRerunTookItsArraysZeroesWhatTheRerunWroteAgain() {
        KeptArrays kept = new KeptArrays();
        float[] a = new float[1000];
        Arrays.fill(a, 1f);
        kept.keep("a", a);
        kept.settled();
        float[] back = (float[]) kept.take("a", float[].class, 1000);
        Arrays.fill(back, 2f);
        // the rerun unwinds again: its array is kept again, dirty
        kept.keep("a", back);
        kept.settled();
        assertArrayEquals(new float[1000], (float[]) kept.take("a", float[].class, 1000));
    }
}
