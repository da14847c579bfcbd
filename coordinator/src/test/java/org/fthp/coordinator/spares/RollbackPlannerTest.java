package org.fthp.coordinator.spares;

import static org.fthp.coordinator.spares.PlannedJobs.dead;
import static org.fthp.coordinator.spares.PlannedJobs.replicatedJob;
import static org.fthp.coordinator.spares.PlannedJobs.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.Message.ProcessState.State;
import org.junit.jupiter.api.Test;

/** The primary's rollback decisions: when a spare takes a lost rank, and the layout every process builds. */
class RollbackPlannerTest {

    @Test
    void aSpareTakesARankWhoseCopiesDiedAndTheLayoutKeepsTheOthersReplicas() {
        RollbackPlanner p = replicatedJob(4);
        List<FailedProcess> failed = List.of(dead(1, 1, Role.CMP), dead(3, 1, Role.REP));
        RollbackPlanner.Decision d = p.decide(List.of(1), 2, failed, new JobShape(2, 2), 4, 5, 0);
        Message.Rollback r = assertInstanceOf(RollbackPlanner.RollBack.class, d).message();
        assertEquals(1, r.generation());
        assertEquals(4, r.epoch());
        assertEquals(7, r.firstEpoch(), "above every epoch seen, and the one that may be in flight");
        assertEquals(4, r.spareNative());
        assertEquals(List.of(0, 4), r.cmpNatives());
        assertEquals(List.of(2, -1), r.repNatives());
        assertEquals(2, r.failureEpoch());
        assertEquals(List.of(0, 4, 2, 3), p.programNatives());
        // the spare's copy now counts for rank 1; the dead computational copy no longer does
        assertEquals(List.of(dead(3, 1, Role.REP)), p.counted(failed));
        assertEquals(List.of(0, 2), p.lagging(Set.of(1, 3)), "the survivors, before the spare");
    }

    @Test
    void aPromotedReplicaLostAfterItsTwinGivesTheLayoutWithThePromotion() {
        RollbackPlanner p = replicatedJob(4);
        // rank 0's computational copy died earlier (its replica, native 2, computes), then both copies of rank 1
        List<FailedProcess> failed = List.of(dead(0, 0, Role.CMP), dead(1, 1, Role.CMP), dead(3, 1, Role.REP));
        Message.Rollback r = assertInstanceOf(RollbackPlanner.RollBack.class,
                p.decide(List.of(1), 3, failed, new JobShape(2, 2), 4, 4, 0)).message();
        assertEquals(List.of(2, 4), r.cmpNatives());
        assertEquals(List.of(-1, -1), r.repNatives());
    }

    @Test
    void aSpareOnAnotherNodeThanTheDeadCopyIsPreferred() {
        // unreplicated ranks 0, 1 on nodes 0, 1; spare 2 on node 1, spare 3 on node 2
        RollbackPlanner p = new RollbackPlanner(2, new int[] {0, 1, 1, 2});
        report(p, 2, State.SPARE_READY, 0);
        report(p, 3, State.SPARE_READY, 0);
        report(p, 0, State.IN_BODY, 0);
        report(p, 1, State.IN_BODY, 0);
        Message.Rollback r = assertInstanceOf(RollbackPlanner.RollBack.class,
                p.decide(List.of(1), 1, List.of(dead(1, 1, Role.CMP)), new JobShape(2, 0), 3, 3, 0)).message();
        assertEquals(3, r.spareNative(), "not the spare on the dead copy's node");
    }

    @Test
    void aHostLossCountsASpareByWhatItHolds() {
        // unreplicated ranks 0, 1; spares 2 and 3; spare 2 took rank 1
        RollbackPlanner p = new RollbackPlanner(2, new int[] {0, 1, 2, 2});
        report(p, 2, State.SPARE_READY, 0);
        report(p, 3, State.SPARE_READY, 0);
        report(p, 0, State.IN_BODY, 0);
        report(p, 1, State.IN_BODY, 0);
        p.decide(List.of(1), 1, List.of(dead(1, 1, Role.CMP)), new JobShape(2, 0), 3, 3, 0);
        // node 2 is lost: the node that saw it fails both processes as spares, not knowing what they hold
        List<FailedProcess> held = p.asHeld(List.of(dead(2, 0, Role.SPARE), dead(3, 0, Role.SPARE)), 2);
        assertEquals(List.of(dead(2, 1, Role.CMP)), held, "the spare holding rank 1 is rank 1's copy");
        report(p, 0, State.IN_BODY, 1);
        report(p, 2, State.IN_BODY, 1);
        p.completedAt(Set.of(1), 0);
        assertInstanceOf(RollbackPlanner.Relaunch.class, p.decide(List.of(1), 2,
                List.of(dead(1, 1, Role.CMP), dead(2, 1, Role.CMP)), new JobShape(2, 0), 3, 3, 0),
                "the waiting spare was lost with the node: none is left");
        List<FailedProcess> plain = List.of(dead(0, 0, Role.CMP));
        assertTrue(plain == p.asHeld(plain, 2), "a batch without spares is returned as it is");
    }

    @Test
    void theRollbackCompletesWhenEveryLiveProcessIsBackInItsBody() {
        RollbackPlanner p = replicatedJob(4);
        Set<Integer> dead = Set.of(1, 3);
        p.decide(List.of(1), 2, List.of(dead(1, 1, Role.CMP), dead(3, 1, Role.REP)), new JobShape(2, 2), 4, 4,
                1_000_000_000L);
        report(p, 0, State.IN_BODY, 1);
        report(p, 2, State.IN_BODY, 1);
        assertEquals(-1, p.completedAt(dead, 2_000_000_000L));
        assertEquals(List.of(4), p.lagging(dead), "only the spare is left to come");
        report(p, 4, State.IN_BODY, 1);
        assertEquals(1.5, p.completedAt(dead, 2_500_000_000L), 1e-9);
        assertEquals(null, p.underWay());
    }

    @Test
    void otherwiseTheJobRelaunchesAndTheReasonSaysWhy() {
        JobShape unreplicated = new JobShape(2, 0);
        List<FailedProcess> one = List.of(dead(1, 1, Role.CMP));
        RollbackPlanner noSpare = new RollbackPlanner(2);
        report(noSpare, 0, State.IN_BODY, 0);
        assertReason("no spare left", noSpare.decide(List.of(1), 1, one, unreplicated, 4, 4, 0));

        RollbackPlanner noCommit = new RollbackPlanner(2);
        report(noCommit, 2, State.SPARE_READY, 0);
        report(noCommit, 0, State.IN_BODY, 0);
        assertReason("no checkpoint committed yet", noCommit.decide(List.of(1), 1, one, unreplicated, -1, 0, 0));

        RollbackPlanner noBody = new RollbackPlanner(2);
        report(noBody, 2, State.SPARE_READY, 0);
        assertReason("native process 0 is not inside Checkpoint.resilient",
                noBody.decide(List.of(1), 1, one, unreplicated, 4, 4, 0));

        RollbackPlanner left = new RollbackPlanner(2);
        report(left, 2, State.SPARE_READY, 0);
        report(left, 0, State.IN_BODY, 0);
        report(left, 0, State.BODY_LEFT, 0);
        assertReason("native process 0 has left Checkpoint.resilient (its body returned",
                left.decide(List.of(1), 1, one, unreplicated, 4, 4, 0));

        RollbackPlanner gone = new RollbackPlanner(2);
        report(gone, 2, State.SPARE_READY, 0);
        report(gone, 2, State.SPARE_GONE, 0);
        report(gone, 0, State.IN_BODY, 0);
        assertReason("no spare left", gone.decide(List.of(1), 1, one, unreplicated, 4, 4, 0));
        assertTrue(gone.sparesSeen());

        RollbackPlanner two = new RollbackPlanner(3);
        assertReason("at once", two.decide(List.of(1, 2), 1, List.of(dead(1, 1, Role.CMP), dead(2, 2, Role.CMP)),
                new JobShape(3, 0), 4, 4, 0));
    }

    @Test
    void aLossDuringARollbackSupersedesItWithTheNextSpareThenRelaunches() {
        RollbackPlanner p = new RollbackPlanner(3);
        report(p, 3, State.SPARE_READY, 0);
        report(p, 4, State.SPARE_READY, 0);
        for (int n = 0; n < 3; n++) {
            report(p, n, State.IN_BODY, 0);
        }
        JobShape shape = new JobShape(3, 0);
        assertInstanceOf(RollbackPlanner.RollBack.class,
                p.decide(List.of(1), 1, List.of(dead(1, 1, Role.CMP)), shape, 4, 4, 0));
        // rank 2 lost before anyone is back in its body: the next generation, with the other spare for it
        List<FailedProcess> failed = List.of(dead(1, 1, Role.CMP), dead(2, 2, Role.CMP));
        assertTrue(p.failsRollbackUnderWay(List.of(dead(2, 2, Role.CMP))));
        Message.Rollback r = assertInstanceOf(RollbackPlanner.RollBack.class,
                p.decide(List.of(2), 2, failed, shape, 4, 4, 0)).message();
        assertEquals(2, r.generation());
        assertEquals(4, r.epoch());
        assertEquals(List.of(0, 3, 4), r.cmpNatives());
        assertEquals(List.of(0, 3, 4), p.programNatives());
        // the spare that took rank 1 lost too: no spare left
        assertReason("no spare left (during the rollback of generation 2)", p.decide(List.of(1), 3,
                List.of(dead(1, 1, Role.CMP), dead(2, 2, Role.CMP), dead(3, 1, Role.CMP)), shape, 4, 4, 0));
    }

    @Test
    void aCopyLostDuringARollbackSupersedesItWithoutThatCopyAndWithTheSameSpare() {
        RollbackPlanner p = replicatedJob(4);
        List<FailedProcess> failed = List.of(dead(1, 1, Role.CMP), dead(3, 1, Role.REP));
        p.decide(List.of(1), 2, failed, new JobShape(2, 2), 4, 4, 1_000_000_000L);
        assertFalse(p.failsRollbackUnderWay(List.of(new FailedProcess(1099, 99, 0, Role.SPARE, "test"))),
                "an idle spare is no process of the rollback");
        // rank 0's replica dies on its way: no rank lost, but the others must not wait for it
        List<FailedProcess> more = List.of(dead(1, 1, Role.CMP), dead(3, 1, Role.REP), dead(2, 0, Role.REP));
        assertTrue(p.failsRollbackUnderWay(List.of(dead(2, 0, Role.REP))));
        Message.Rollback r = assertInstanceOf(RollbackPlanner.RollBack.class,
                p.decide(List.of(), 3, more, new JobShape(2, 2), 4, 4, 2_000_000_000L)).message();
        assertEquals(2, r.generation());
        assertEquals(4, r.spareNative());
        assertEquals(1, r.lostRank());
        assertEquals(List.of(0, 4), r.cmpNatives());
        assertEquals(List.of(-1, -1), r.repNatives());
        assertEquals(3, r.failureEpoch());
        report(p, 0, State.IN_BODY, 2);
        report(p, 4, State.IN_BODY, 2);
        assertEquals(2.0, p.completedAt(Set.of(1, 2, 3), 3_000_000_000L), 1e-9, "timed from the first decision");
    }

    private static void assertReason(String part, RollbackPlanner.Decision d) {
        RollbackPlanner.Relaunch r = assertInstanceOf(RollbackPlanner.Relaunch.class, d);
        assertTrue(r.reason().contains(part), r.reason());
    }
}
