package org.fthp.replication.structure;

/**
 * The native communicators behind one user communicator (DESIGN §5), as
 * handles; 0 where this process is not a member. Each data-carrying one has
 * an internal twin for large payloads and the facade's own messages.
 *
 * @param eworld             every live copy of the members, computational copies first
 * @param cmp                the computational copies (null on replicas)
 * @param cmpInternal        twin of {@code cmp}
 * @param rep                the replicas (null on computational copies)
 * @param repInternal        twin of {@code rep}
 * @param cmpRep             CMP_REP_INTERCOMM: computational copies ↔ replicas (null without replicas)
 * @param cmpNoRep           computational copies without a replica
 * @param noRepToRep         CMP_NO_REP_INTERCOMM: those ↔ the replicas
 * @param noRepToRepInternal twin of {@code noRepToRep}
 * @param collective         where the computational copies run collectives: {@code cmp} for an
 *                           intracommunicator, an intercommunicator between the two groups' computational
 *                           copies for an intercommunicator (null on replicas)
 * @param copies             the native COMM_WORLD rank of every process of {@code eworld}: whether a failure
 *                           touches these communicators at all
 */
public record NativeComms(long eworld, long cmp, long cmpInternal, long rep, long repInternal, long cmpRep,
                          long cmpNoRep, long noRepToRep, long noRepToRepInternal, long collective, int[] copies) {

    /** Without replicas: the computational copies are the whole eworld. */
    public static NativeComms unreplicated(long cmp, long cmpInternal, long collective, int[] copies) {
        return new NativeComms(cmp, cmp, cmpInternal, 0, 0, 0, 0, 0, 0, collective, copies);
    }

    /** Whether every process of {@code eworld} is among {@code live} (native ranks): a failure left these alone. */
    public boolean allIn(java.util.Set<Integer> live) {
        for (int c : copies) {
            if (!live.contains(c)) {
                return false;
            }
        }
        return true;
    }

    /** Every distinct handle this process holds, for freeing (the eworld last: the others came from it). */
    public long[] owned() {
        long[] all = {collective, cmpInternal, repInternal, noRepToRepInternal, noRepToRep, cmpNoRep, cmpRep, rep,
                cmp, eworld};
        return java.util.Arrays.stream(all).filter(h -> h != 0).distinct().toArray();
    }
}
