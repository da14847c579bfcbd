package org.fthp.replication.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Which coordinator a process registers with: blocks of ranks on one host, fthp-run's list on several. */
class CoordinatorLinkNodeOfTest {

    @Test
    void emulatedNodesAreBlocksUnlessFthpRunNamesEachRanksNode() {
        assertEquals(0, CoordinatorLink.nodeOf(1, 4, 2, null));
        assertEquals(1, CoordinatorLink.nodeOf(2, 4, 2, ""));
        // several hosts: the replicas of ranks 0 and 1 (native 2 and 3) on host 1, whatever the blocks say
        assertEquals(1, CoordinatorLink.nodeOf(2, 4, 2, "0,1,1,0"));
        assertEquals(0, CoordinatorLink.nodeOf(3, 4, 2, "0,1,1,0"));
        assertThrows(IllegalStateException.class, () -> CoordinatorLink.nodeOf(3, 4, 2, "0,1,1"));
        assertThrows(IllegalStateException.class, () -> CoordinatorLink.nodeOf(0, 4, 2, "2,1,1,0"));
    }
}
