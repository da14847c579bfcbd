package org.fthp.model.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RollbackScalingTest {

    private static final RollbackScaling.Split MEASURED = new RollbackScaling.Split(0.08, 0.04, 0.01, 0.2, 0.04,
            0.05);

    @Test
    void atTheMeasuredSizeTheProjectionIsTheMeasurement() {
        RollbackScaling s = new RollbackScaling(MEASURED, 9, 2, 32, 2e-6, 3);
        assertEquals(MEASURED.total(), s.at(9, 2).total(), 1e-12);
    }

    @Test
    void localStepsStayAndTheTreeAddsHopsOnlyOnceItHasGroups() {
        RollbackScaling s = new RollbackScaling(MEASURED, 9, 2, 32, 0, 3);
        RollbackScaling.Split big = s.at(100_000, 3125);
        assertEquals(MEASURED.detection(), big.detection());
        assertEquals(MEASURED.stateLoad(), big.stateLoad());
        // two hops measured (one level), four with leaders
        assertEquals(2 * MEASURED.agreement(), big.agreement(), 1e-12);
        assertEquals(MEASURED.agreement(), s.at(500, 16).agreement(), 1e-12);
    }

    @Test
    void theRebuildGrowsWithTheLogarithmAndTheRoundsByDisseminationAboveTheBound() {
        RollbackScaling withoutRounds = new RollbackScaling(MEASURED, 16, 2, 32, 0, 3);
        assertEquals(MEASURED.rebuild() * 2, withoutRounds.at(256, 8).rebuild(), 1e-12);
        RollbackScaling rounds = new RollbackScaling(MEASURED, 16, 2, 32, 1e-6, 3);
        // the measured rounds (3 of 15 messages) are taken out of what scales with the logarithm and counted again
        // at the projected size: all to all up to 32 processes (3 rounds of 31), above ceil(log2 100001) = 17 steps
        assertEquals(1e-6 * (3 * 31 - 45 * log2(32) / log2(16)),
                rounds.at(32, 2).rebuild() - withoutRounds.at(32, 2).rebuild(), 1e-12);
        assertEquals(1e-6 * (3 * 17 - 45 * log2(100_001) / log2(16)),
                rounds.at(100_001, 3125).rebuild() - withoutRounds.at(100_001, 3125).rebuild(), 1e-12);
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    @Test
    void badFiguresAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RollbackScaling.Split(-1, 0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new RollbackScaling(MEASURED, 1, 1, 32, 0, 3));
        assertThrows(IllegalArgumentException.class,
                () -> RollbackScalingMain.run(new String[] {"--split", "1,2", "--processes", "9", "--nodes", "2"}));
        assertThrows(IllegalArgumentException.class,
                () -> RollbackScalingMain.run(new String[] {"--processes", "x"}));
    }

    @Test
    void theTableHasTheMeasuredRowAndOneRowPerSize() {
        String table = RollbackScalingMain.run(new String[] {"--split", "0.08,0.04,0.01,0.2,0.04,0.05",
                "--processes", "9", "--nodes", "2", "--at", "1000,100000"});
        assertEquals(2 + 1 + 2, table.lines().count());
        assertTrue(table.contains("| 9 (measured) | 2 |"), table);
        assertTrue(table.contains("| 100000 | 3125 |"), table);
    }
}
