package org.fthp.replication.creation;

/**
 * What runs before a blocking native call of a communicator's rebuild: the repair's round in which the processes
 * involved say they are about to enter (repair.Repair implements it; this package never calls the repair itself).
 */
@FunctionalInterface
public interface BlockingCallEntry {

    /** Outside a rebuild: nothing to say. */
    BlockingCallEntry NONE = involved -> { };

    /** Returns once every one of {@code involved} (native ranks) is about to enter; may abandon the attempt. */
    void beforeBlockingCall(int[] involved);
}
