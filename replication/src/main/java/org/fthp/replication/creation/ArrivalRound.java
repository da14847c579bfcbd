package org.fthp.replication.creation;

/**
 * A nonblocking round in which a set of processes learn that all of them have arrived; the caller polls it and may
 * leave it ({@link #close}). {@link ArrivalRounds#among} picks the kind.
 */
public interface ArrivalRound extends AutoCloseable {

    /** Whether every process of the round has arrived. */
    boolean heardFromAll();

    @Override
    void close();
}
