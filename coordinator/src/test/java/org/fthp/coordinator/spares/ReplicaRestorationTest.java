package org.fthp.coordinator.spares;

import static org.fthp.coordinator.spares.PlannedJobs.dead;
import static org.fthp.coordinator.spares.PlannedJobs.replicatedJob;
import static org.fthp.coordinator.spares.PlannedJobs.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.Message.ProcessState.State;
import org.junit.jupiter.api.Test;

/**
 * The primary's restoration of lost replicas from spares: when one is due, the rollback at the next commit (the
 * spare as the rank's replica, the promoted copy still computing), and what counts as a lost rank after it.
 */
class ReplicaRestorationTest {

    private static final JobShape SHAPE = new JobShape(2, 2);

    @Test
    void aDeadReplicaIsRestoredAtTheFirstCommitAfterTheProcessesKnew() {
        RollbackPlanner p = replicatedJob(4, 5);
        ReplicaRestoration r = new ReplicaRestoration(true);
        assertNull(r.changed(p, List.of(), SHAPE, 3), "every rank has its replica: nothing due, nothing to say");
        List<FailedProcess> failed = List.of(dead(3, 1, Role.REP));
        Message.RestorationDue due = r.changed(p, failed, SHAPE, 3);
        assertNotNull(due);
        assertTrue(due.due());
        assertNull(r.changed(p, failed, SHAPE, 3), "said once");
        assertNull(r.atCommit(3, p, failed, SHAPE, 1, 3, 0), "epoch 3 was under way before the processes knew");
        Message.Rollback rollback = r.atCommit(4, p, failed, SHAPE, 1, 4, 0);
        assertNotNull(rollback);
        assertTrue(rollback.restoresReplica());
        assertEquals(4, rollback.epoch(), "the epoch just committed: nothing is lost");
        assertEquals(6, rollback.firstEpoch());
        assertEquals(1, rollback.lostRank());
        assertEquals(3, rollback.deadNative());
        assertEquals(4, rollback.spareNative());
        assertEquals(List.of(0, 1), rollback.cmpNatives());
        assertEquals(List.of(2, 4), rollback.repNatives());
        assertEquals(List.of(0, 1, 2, 4), p.programNatives());
        Message.RestorationDue after = r.changed(p, failed, SHAPE, 4);
        assertNotNull(after);
        assertFalse(after.due(), "not during the rollback");
    }

    @Test
    void aPromotedReplicaKeepsComputingAndTheSpareBecomesItsReplica() {
        RollbackPlanner p = replicatedJob(4, 5);
        ReplicaRestoration r = new ReplicaRestoration(true);
        List<FailedProcess> failed = List.of(dead(1, 1, Role.CMP));
        assertTrue(r.changed(p, failed, SHAPE, 0).due());
        Message.Rollback rollback = r.atCommit(1, p, failed, SHAPE, 1, 1, 0);
        assertEquals(List.of(0, 3), rollback.cmpNatives());
        assertEquals(List.of(2, 4), rollback.repNatives());
        assertEquals(1, rollback.deadNative());
        // the restoration completes; then the promoted copy dies: the rank still has the spare, so it is not lost
        report(p, 0, State.IN_BODY, 1);
        report(p, 2, State.IN_BODY, 1);
        report(p, 3, State.IN_BODY, 1);
        report(p, 4, State.IN_BODY, 1);
        List<FailedProcess> later = List.of(dead(1, 1, Role.CMP), dead(3, 1, Role.REP));
        assertTrue(p.completedAt(RollbackPlanner.nativeRanksOf(later), 1) >= 0);
        assertEquals(List.of(), SHAPE.lostRanks(p.counted(later)));
        // its loss too makes the rank lost (two processes that held the replica's role in turn are two copies)
        List<FailedProcess> all = List.of(dead(1, 1, Role.CMP), dead(3, 1, Role.REP), dead(4, 1, Role.REP));
        assertEquals(List.of(1), SHAPE.lostRanks(p.counted(all)));
        // and the rollback that replaces it keeps rank 0's layout and gives rank 1 to the last spare
        Message.Rollback replaced = assertInstanceOf(RollbackPlanner.RollBack.class,
                p.decide(List.of(1), 3, all, SHAPE, 6, 6, 0)).message();
        assertEquals(List.of(0, 5), replaced.cmpNatives());
        assertEquals(List.of(2, -1), replaced.repNatives());
    }

    @Test
    void nothingIsDueWhenOffWithoutASpareOrOutsideTheBody() {
        List<FailedProcess> failed = List.of(dead(3, 1, Role.REP));
        RollbackPlanner p = replicatedJob(4, 5);
        ReplicaRestoration off = new ReplicaRestoration(false);
        assertNull(off.changed(p, failed, SHAPE, 0));
        assertNull(off.atCommit(5, p, failed, SHAPE, 1, 5, 0));

        RollbackPlanner noSpare = new RollbackPlanner(4);
        for (int n = 0; n < 4; n++) {
            report(noSpare, n, State.IN_BODY, 0);
        }
        assertNull(new ReplicaRestoration(true).changed(noSpare, failed, SHAPE, 0));

        RollbackPlanner noBody = new RollbackPlanner(4);
        report(noBody, 4, State.SPARE_READY, 0);
        assertNull(new ReplicaRestoration(true).changed(noBody, failed, SHAPE, 0),
                "a program without the resilient entry cannot roll back");
    }

    @Test
    void aSpareGoneWhileDueIsSaidAndNoRollbackFollows() {
        RollbackPlanner p = new RollbackPlanner(4);
        report(p, 4, State.SPARE_READY, 0);
        for (int n = 0; n < 4; n++) {
            report(p, n, State.IN_BODY, 0);
        }
        ReplicaRestoration r = new ReplicaRestoration(true);
        List<FailedProcess> failed = List.of(dead(2, 0, Role.REP));
        assertTrue(r.changed(p, failed, SHAPE, 0).due());
        report(p, 4, State.SPARE_GONE, 0);
        assertFalse(r.changed(p, failed, SHAPE, 0).due());
        assertNull(r.atCommit(1, p, failed, SHAPE, 1, 1, 0));
    }
}
