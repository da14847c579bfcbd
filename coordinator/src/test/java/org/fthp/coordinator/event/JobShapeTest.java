package org.fthp.coordinator.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class JobShapeTest {
    private static FailedProcess dead(int nativeRank, int logical, Role role) {
        return new FailedProcess(1000 + nativeRank, nativeRank, logical, role, "test");
    }

    @Test
    void replicatedRankIsLostOnlyWhenBothCopiesAreDead() {
        JobShape shape = new JobShape(4, 2);
        assertTrue(shape.firstLostRank(List.of(dead(1, 1, Role.CMP))).isEmpty());
        // The same copy reported twice is still one copy.
        assertTrue(shape.firstLostRank(List.of(dead(1, 1, Role.CMP), dead(1, 1, Role.CMP))).isEmpty());
        assertEquals(OptionalInt.of(1), shape.firstLostRank(List.of(dead(1, 1, Role.CMP), dead(5, 1, Role.REP))));
    }

    @Test
    void unreplicatedRankIsLostWithItsOnlyCopy() {
        assertEquals(OptionalInt.of(3), new JobShape(4, 2).firstLostRank(List.of(dead(3, 3, Role.CMP))));
        assertEquals(OptionalInt.of(0), new JobShape(4, 0).firstLostRank(List.of(dead(0, 0, Role.CMP))));
    }

    @Test
    void aDeadSpareLosesNoRank() {
        // spare 0 is native rank 6 of a 4 + 2 job; its "logical rank" is its index among the spares
        assertTrue(new JobShape(4, 2).lostRanks(List.of(dead(6, 0, Role.SPARE))).isEmpty());
        assertTrue(new JobShape(4, 0).lostRanks(List.of(dead(4, 0, Role.SPARE))).isEmpty());
    }

    @Test
    void ledgerAdvancesEpochOnlyWhenTheSetGrows() {
        FailureLedger ledger = new FailureLedger();
        assertEquals(1, ledger.record(List.of(dead(1, 1, Role.CMP))).orElseThrow().epoch());
        assertTrue(ledger.record(List.of(dead(1, 1, Role.CMP))).isEmpty());
        FailureSnapshot second = ledger.record(List.of(dead(1, 1, Role.CMP), dead(6, 2, Role.REP))).orElseThrow();
        assertEquals(2, second.epoch());
        assertEquals(List.of(1, 6), second.failed().stream().map(FailedProcess::nativeRank).toList());
    }
}
