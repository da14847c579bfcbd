package org.fthp.replication.creation;

import org.fthp.replication.control.ControlComm;

/** Which round serves a set of processes: one message to every other for few, a dissemination barrier for many. */
public final class ArrivalRounds {

    /**
     * Up to this many processes a round is one message to every other ({@link ControlExchange}: a single step);
     * above, a {@link DisseminationRound} ({@code log2 n} steps of one message). FTHP_ROUND_ALL_TO_ALL_UP_TO
     * moves the bound (1: every round by dissemination).
     */
    static final int ALL_TO_ALL_UP_TO = Integer.parseInt(System.getenv().getOrDefault("FTHP_ROUND_ALL_TO_ALL_UP_TO",
            "32"));

    private ArrivalRounds() {}

    /** The round among {@code processes} (native ranks, {@code me} among them) on {@code comm} under {@code tag}. */
    public static ArrivalRound among(ControlComm comm, int me, int[] processes, int tag, long value) {
        return processes.length <= ALL_TO_ALL_UP_TO ? new ControlExchange(comm, me, processes, tag, value)
                : new DisseminationRound(comm, me, processes, tag);
    }
}
