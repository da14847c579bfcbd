package org.fthp.replication.ops;

import org.fthp.replication.tags.InternalTags;

/**
 * Who exchanges with whom, under which tag, in a recursive-doubling allreduce
 * of {@code size} ranks. Shared by the operation progressed in the background
 * ({@link RecursiveDoublingAllreduce}) and the one a job without replicas runs
 * inside the call ({@code collective.InlineAllreduce}): both put the same
 * messages on the wire, in the same order, and combine the same operands in
 * the same bracketing.
 *
 * <p>A size that is not a power of two first folds pairs {@code (2i, 2i+1)}
 * into the odd rank: the even one gives its value and sits the doubling out,
 * then gets the result back under the range's last tag. The doubling itself
 * runs over {@code highestOneBit(size)} virtual ranks, one exchange per step.
 *
 * <p>Static, on plain ints: the schedule is asked once per step of a call that
 * takes a few hundred nanoseconds, and an object per call would cost more than
 * the arithmetic.
 */
public final class DoublingSchedule {

    private DoublingSchedule() {}

    /** Doubling steps: log2 of the largest power of two not above {@code size}. */
    public static int steps(int size) {
        return Integer.numberOfTrailingZeros(Integer.highestOneBit(size));
    }

    /** Ranks above the power of two; as many even ranks from 0 fold into their odd neighbour. */
    private static int folded(int size) {
        return size - Integer.highestOneBit(size);
    }

    /** Whether {@code rank} gives its value to {@code rank + 1}, sits the doubling out and gets the result back. */
    public static boolean foldsOut(int rank, int size) {
        return rank < 2 * folded(size) && rank % 2 == 0;
    }

    /** Whether {@code rank} first takes {@code rank - 1}'s value and hands the result back at the end. */
    public static boolean foldsIn(int rank, int size) {
        return rank < 2 * folded(size) && rank % 2 == 1;
    }

    /**
     * The rank {@code rank} exchanges with at doubling step {@code step} (1 ≤ step ≤ steps), for a rank that takes
     * part in the doubling (not {@link #foldsOut}).
     */
    public static int partner(int rank, int size, int step) {
        int rem = folded(size);
        int virtual = rank < 2 * rem ? rank / 2 : rank - rem;
        int peer = virtual ^ (1 << (step - 1));
        return peer < rem ? 2 * peer + 1 : peer + rem;
    }

    /** The first tag of allreduce number {@code sequence} of its communicator: the fold's. */
    public static int tagBase(long sequence) {
        // collectives start in the same order everywhere: the sequence keeps overlapping ones apart
        return InternalTags.allreduceBase(sequence);
    }

    /** The tag of doubling step {@code step}. */
    public static int stepTag(int tagBase, int step) {
        return tagBase + step;
    }

    /** The tag under which a folded-out rank gets the result back: the range's last. */
    public static int resultTag(int tagBase) {
        return tagBase + InternalTags.ALLREDUCE_STEPS - 1;
    }

    /**
     * Whether the value from {@code peer} is the left operand at {@code rank}: the lower rank's always is, so
     * every rank computes the same bits and non-commutative operations keep rank order.
     */
    public static boolean theirsFirst(int rank, int peer) {
        return peer < rank;
    }
}
