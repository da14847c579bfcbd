package org.fthp.coordinator.spares;

import static org.fthp.coordinator.spares.PlannedJobs.replicatedJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.Message.ProcessState.State;
import org.junit.jupiter.api.Test;

/** The primary's answer to a difference between twins: a rollback in place without a spare, or the job's end. */
class SdcRollbackTest {

    private static final JobShape SHAPE = new JobShape(2, 2);
    private static final String REASON = "silent data corruption detected: rank=0 epoch=3 what=state";

    private static Message.SdcDetected report(int nativeRank, int generation) {
        return new Message.SdcDetected(nativeRank, 0, generation, REASON);
    }

    @Test
    void bothTwinsReportAndOneRollbackInPlaceKeepsEveryProcess() {
        RollbackPlanner p = replicatedJob();
        SdcRollback sdc = new SdcRollback();
        Message.Rollback r = assertInstanceOf(RollbackPlanner.RollBack.class,
                sdc.decide(report(0, 0), p, List.of(), SHAPE, 2, 3, 0, 0)).message();
        assertTrue(r.afterSdc());
        assertFalse(r.restoresReplica());
        assertEquals(1, r.generation());
        assertEquals(2, r.epoch(), "the last committed epoch, which the twins verified");
        assertEquals(5, r.firstEpoch(), "above every epoch seen, and the one that may be in flight");
        assertEquals(List.of(0, 1), r.cmpNatives());
        assertEquals(List.of(2, 3), r.repNatives());
        assertEquals(List.of(0, 1, 2, 3), p.programNatives(), "nobody retired, nobody taken");
        // the twin's report of the same generation is answered already
        assertNull(sdc.decide(report(2, 0), p, List.of(), SHAPE, 2, 3, 0, 0));
        assertSame(r, p.underWay());
        assertTrue(p.completedAt(Set.of(), 1) < 0);
        for (int n = 0; n < 4; n++) {
            p.stateReported(new Message.ProcessState(n, State.IN_BODY, 1));
        }
        assertTrue(p.completedAt(Set.of(), 1) >= 0);
    }

    @Test
    void aDeadReplicaStaysOutOfTheLayout() {
        RollbackPlanner p = replicatedJob();
        List<FailedProcess> failed = List.of(new FailedProcess(1003, 3, 1, Role.REP, "test"));
        Message.Rollback r = assertInstanceOf(RollbackPlanner.RollBack.class,
                new SdcRollback().decide(report(0, 0), p, failed, SHAPE, 4, 4, 1, 0)).message();
        assertEquals(List.of(0, 1), r.cmpNatives());
        assertEquals(List.of(2, -1), r.repNatives());
        assertEquals(1, r.failureEpoch());
    }

    @Test
    void withoutACommittedEpochOrOutsideTheBodyTheJobEndsAsBefore() {
        RollbackPlanner.Relaunch none = assertInstanceOf(RollbackPlanner.Relaunch.class,
                new SdcRollback().decide(report(0, 0), replicatedJob(), List.of(), SHAPE, 0, 1, 0, 0));
        assertTrue(none.reason().contains("no checkpoint committed"), none.reason());
        RollbackPlanner p = replicatedJob();
        p.stateReported(new Message.ProcessState(1, State.BODY_LEFT, 0));
        RollbackPlanner.Relaunch outside = assertInstanceOf(RollbackPlanner.Relaunch.class,
                new SdcRollback().decide(report(0, 0), p, List.of(), SHAPE, 2, 3, 0, 0));
        assertTrue(outside.reason().contains("native process 1"), outside.reason());
        assertNull(p.underWay(), "no rollback begun");
    }
}
