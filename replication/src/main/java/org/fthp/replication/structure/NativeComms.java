package org.fthp.replication.structure;

import org.fthp.replication.twins.TwinChannel;
/**
 * The native communicators behind one user communicator (docs/DESIGN.md §5), as
 * handles; 0 where this process is not a member. Each data-carrying one has
 * an internal twin for large payloads and the facade's own messages.
 *
 * @param eworld             every live copy of the members, computational copies first: COMM_WORLD's only,
 *                           or where there are no replicas (0 otherwise: made over both sides, it would be a
 *                           blocking call a death could wedge every copy in)
 * @param cmp                the computational copies (null on replicas)
 * @param cmpInternal        twin of {@code cmp}
 * @param rep                the replicas (null on computational copies)
 * @param repInternal        twin of {@code rep}
 * @param cmpRep             where the twins meet: a duplicate of {@code eworld}, made for COMM_WORLD only (0 for
 *                           the others: their twins share COMM_WORLD's, see {@code twin})
 * @param cmpNoRep           computational copies without a replica
 * @param noRepToRep         CMP_NO_REP: those and the replicas, one process per member in member order
 * @param noRepToRepInternal twin of {@code noRepToRep}
 * @param collective         where the computational copies run collectives: {@code cmp} for an
 *                           intracommunicator, an intercommunicator between the two groups' computational
 *                           copies for an intercommunicator (null on replicas)
 * @param twin               where this process and its twin exchange this communicator's decisions; null
 *                           when it has no twin
 * @param copies             the native COMM_WORLD rank of every copy of the members: whether a failure touches
 *                           these communicators at all
 */
public record NativeComms(long eworld, long cmp, long cmpInternal, long rep, long repInternal, long cmpRep,
                          long cmpNoRep, long noRepToRep, long noRepToRepInternal, long collective, TwinChannel twin,
                          int[] copies) {

    /** Without replicas: the computational copies are the whole eworld. */
    public static NativeComms unreplicated(long cmp, long cmpInternal, long collective, int[] copies) {
        return new NativeComms(cmp, cmp, cmpInternal, 0, 0, 0, 0, 0, 0, collective, null, copies);
    }

    /** Whether every copy of the members is among {@code live} (native ranks): a failure left these alone. */
    public boolean allIn(java.util.Set<Integer> live) {
        for (int c : copies) {
            if (!live.contains(c)) {
                return false;
            }
        }
        return true;
    }

    /** Every distinct handle this process holds, for freeing (the eworld last: the others came from it; the twin
     *  channel is COMM_WORLD's, never freed with another communicator). */
    public long[] owned() {
        long[] all = {collective, cmpInternal, repInternal, noRepToRepInternal, noRepToRep, cmpNoRep, cmpRep, rep,
                cmp, eworld};
        return java.util.Arrays.stream(all).filter(h -> h != 0).distinct().toArray();
    }
}
