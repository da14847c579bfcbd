package org.fthp.replication.creation;

import org.fthp.replication.control.ControlComm;

/**
 * A nonblocking round in which a set of processes learn that all of them have arrived; the caller polls it and may
 * leave it ({@link #close}).
 */
public interface ArrivalRound extends AutoCloseable {

    /**
     * Up to this many processes a round is one message to every other ({@link ControlExchange}: a single step);
     * above, a {@link DisseminationRound} ({@code log2 n} steps of one message). FTHP_ROUND_ALL_TO_ALL_UP_TO
     * moves the bound (1: every round by dissemination).
     */
    int ALL_TO_ALL_UP_TO = Integer.parseInt(System.getenv().getOrDefault("FTHP_ROUND_ALL_TO_ALL_UP_TO", "32"));

    /** Whether every process of the round has arrived. */
    boolean heardFromAll();

    @Override
    void close();

    /** The round among {@code processes} (native ranks, {@code me} among them) on {@code comm} under {@code tag}. */
    static ArrivalRound among(ControlComm comm, int me, int[] processes, int tag, long value) {
        return processes.length <= ALL_TO_ALL_UP_TO ? new ControlExchange(comm, me, processes, tag, value)
                : new DisseminationRound(comm, me, processes, tag);
    }
}
