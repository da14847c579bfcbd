package org.fthp.launcher.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class KillPlanTest {

    @Test
    void parsesRankRoleAndTime() {
        assertEquals(new KillPlan.ScheduledKill(3, false, 2.5), KillPlan.parseKill("3@2.5"));
        assertEquals(new KillPlan.ScheduledKill(0, false, 1), KillPlan.parseKill("0:cmp@1"));
        assertEquals(new KillPlan.ScheduledKill(5, true, 0), KillPlan.parseKill("5:rep@0"));
    }

    @Test
    void parsesAWaitingSparesKill() {
        assertEquals(new KillPlan.ScheduledKill(1, false, 0.5, true), KillPlan.parseKill("spare:1@0.5"));
        for (String bad : new String[] {"spare:1", "spare:-1@1", "spare:x@1", "spare:1#40"}) {
            assertThrows(IllegalArgumentException.class, () -> KillPlan.parseKill(bad), bad);
        }
    }

    @Test
    void parsesKillsAtACall() {
        assertEquals(new KillPlan.CallKill(2, true, 40), KillPlan.parseKill("2:rep#40"));
        assertEquals(new KillPlan.CallKill(1, false, 1), KillPlan.parseKill("1#1"));
    }

    @Test
    void callKillsGoToTheRanksByNativeRankAndNeedNoInjector() {
        KillPlan plan = KillPlan.of(java.util.List.of(KillPlan.parseKill("2:rep#40"), KillPlan.parseKill("1:cmp#7")),
                null);
        assertEquals("6:40,1:7", plan.callKillsByNativeRank(4));
        assertEquals(false, plan.injectorWanted());
        assertEquals(true, plan.wanted());
        assertEquals(true, KillPlan.of(java.util.List.of(KillPlan.parseKill("1@2")), null).injectorWanted());
    }

    @Test
    void refusesMalformedSpecs() {
        for (String bad : new String[] {"3", "@1", "3@", "x@1", "-1@2", "3:foo@1", "3@-1", "3@abc", "3#0", "3#1.5",
                "3#", "#4", "3:rep#-2"}) {
            assertThrows(IllegalArgumentException.class, () -> KillPlan.parseKill(bad), bad);
        }
    }

    @Test
    void perProcessMtbfIsDividedByTheProcessCount() {
        assertEquals(2.5, new KillPlan.Weibull(40, true, 0.7, 1).systemMtbf(16));
        assertEquals(40, new KillPlan.Weibull(40, false, 0.7, 1).systemMtbf(16));
    }
}
