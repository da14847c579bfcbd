package org.fthp.replication.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.structure.ConsumedRecord;
import org.junit.jupiter.api.Test;

/** The collective log's bookkeeping and a repair's replay planning (docs/DESIGN.md §9, step 6). */
class CollectiveLogTest {

    /** Which logged collectives were started again, in order (a replay's op is null here: nothing native runs). */
    private final List<Long> replayed = new ArrayList<>();
    private final CollectiveLogs<NativeOp> logs = new CollectiveLogs<>(true, op -> { });

    private void runAndLog(CollectiveLog<NativeOp> log, long bytes) {
        long k = log.begin();
        log.log(k, now -> {
            replayed.add(k);
            return null;
        }, bytes);
        log.completed(k);
    }

    @Test
    void completionsOutOfOrderAreRecordedAsThroughAndAbove() {
        CollectiveLog<NativeOp> log = logs.of(7);
        for (int i = 0; i < 5; i++) {
            log.begin();
        }
        log.completed(1);
        log.completed(3);
        log.completed(5);
        ConsumedRecord r = log.completedRecord();
        assertEquals(1, r.through());
        assertArrayEquals(new long[] {3, 5}, r.above());
        log.completed(2);
        r = log.completedRecord();
        assertEquals(3, r.through());
        assertArrayEquals(new long[] {5}, r.above());
    }

    @Test
    void aRepairReplaysInOrderWhatAnotherMemberHadNotCompleted() {
        CollectiveLog<NativeOp> log = logs.of(1);
        for (int i = 0; i < 5; i++) {
            runAndLog(log, 8);
        }
        log.plan(List.of(new ConsumedRecord(3, new long[0]), new ConsumedRecord(5, new long[0])));
        assertEquals("[4, 5]", log.plannedReplays());
        log.replayBefore(5, null);
        assertEquals(List.of(4L), replayed);
        log.replayRest(null);
        assertEquals(List.of(4L, 5L), replayed);
        assertEquals("[]", log.plannedReplays());
    }

    @Test
    void nothingIsReplayedWhenEveryMemberCompletedAsMuch() {
        CollectiveLog<NativeOp> log = logs.of(2);
        for (int i = 0; i < 3; i++) {
            runAndLog(log, 8);
        }
        log.plan(List.of(new ConsumedRecord(2, new long[] {3})));
        log.replayRest(null);
        assertTrue(replayed.isEmpty());
    }

    @Test
    void aReplayThatFellOutOfTheBoundedLogFailsLoudly() {
        CollectiveLog<NativeOp> log = logs.of(3);
        for (int i = 0; i < CollectiveLog.KEEP + 1; i++) {
            runAndLog(log, 1);
        }
        log.plan(List.of(new ConsumedRecord(0, new long[0])));
        assertThrows(org.fthp.replication.error.MpiError.class, () -> log.replayRest(null));
    }

    @Test
    void forgettingACommunicatorReturnsItsBytesToTheSharedBound() {
        CollectiveLog<NativeOp> log = logs.of(4);
        runAndLog(log, CollectiveLogs.LIMIT / 2);
        logs.forget(4);
        CollectiveLog<NativeOp> other = logs.of(5);
        runAndLog(other, CollectiveLogs.LIMIT / 2);
        runAndLog(other, CollectiveLogs.LIMIT / 4);
        // both entries still fit: the forgotten communicator's bytes no longer count
        other.plan(List.of(new ConsumedRecord(0, new long[0])));
        other.replayRest(null);
        assertEquals(List.of(1L, 2L), replayed);
    }

    @Test
    void withoutReplicasNothingIsKept() {
        assertTrue(!new CollectiveLogs(false, op -> { }).keepsEntries());
    }
}
