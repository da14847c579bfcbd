package org.fthp.replication.tags;

/**
 * What the native library's tag bound ({@code MPI_TAG_UB}, known after MPI_Init) leaves to the facade: the
 * program's largest tag (its TAG_UB attribute), and how many twin slots fit in the engine's own tag space (each
 * slot takes 2^{@link InternalTags#TWIN_DECISION_BITS} tags of {@link InternalTags#TWIN_DECISIONS}). Open MPI 4.1's
 * bound (2^31-1) leaves the full layout; MPICH 4.0's over UCX (2^28-1) leaves 256 twin slots, so at most 255
 * communicators besides COMM_WORLD alive at once in a replicated job.
 *
 * @param nativeTagUb the library's bound
 * @param userTagUb   the program's largest tag: the facade's 2^30-1, or the library's bound if that is lower
 * @param twinSlots   twin slots whose tags stay within the bound, at most {@link InternalTags#TWIN_SLOTS}
 */
public record TagBound(int nativeTagUb, int userTagUb, int twinSlots) {

    /** The facade's largest user tag when the library allows more. */
    public static final int FACADE_TAG_UB = (1 << 30) - 1;
    /** Slot 0 is COMM_WORLD's; a replicated job needs at least one more for any communicator it creates. */
    private static final int MIN_TWIN_SLOTS = 2;

    /** The facade's tags under a library whose bound is {@code nativeTagUb}; refuses one too small for them. */
    public static TagBound of(int nativeTagUb) {
        for (InternalTags.Range r : InternalTags.ALL) {
            if (r.space() != InternalTags.Space.TWIN && r.last() > nativeTagUb) {
                throw new IllegalStateException("the native MPI's largest tag is " + nativeTagUb + ", below the "
                        + r.name() + " tags the engine uses (up to " + r.last() + ")");
            }
        }
        long slots = Math.min(InternalTags.TWIN_SLOTS, (nativeTagUb + 1L) >>> InternalTags.TWIN_DECISION_BITS);
        if (slots < MIN_TWIN_SLOTS) {
            throw new IllegalStateException("the native MPI's largest tag is " + nativeTagUb + ": too small for "
                    + "twin decisions (" + MIN_TWIN_SLOTS + " slots of 2^" + InternalTags.TWIN_DECISION_BITS
                    + " tags)");
        }
        return new TagBound(nativeTagUb, Math.min(FACADE_TAG_UB, nativeTagUb), (int) slots);
    }
}
