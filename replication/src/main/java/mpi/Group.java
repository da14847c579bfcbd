package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A group of processes, as logical COMM_WORLD ranks. Pure Java: groups only
 * become native when a communicator is built from them, so they remain valid
 * when the native processes behind a rank change.
 */
public final class Group implements Freeable {

    protected long handle;
    private int[] members;
    /**
     * The job's generation this group was made in: one made before a rollback in place (see {@code
     * Checkpoint.resilient}) is stale after it, as communicators are (the body makes its groups again).
     */
    private final int generation = org.fthp.replication.runtime.Engine.currentGeneration();

    protected Group(long handle) {
        this.handle = handle;
        this.members = new int[0];
    }

    Group(int[] worldRanks) {
        this.members = worldRanks;
        this.handle = 1;
    }

    protected static long getEmpty() {
        return 1;
    }

    int[] members() throws MPIException {
        MPI.check();
        if (members == null) {
            throw Errors.error(MPI.ERR_GROUP, "group has been freed");
        }
        stale();
        return members;
    }

    /** An error if this group was made before the job rolled back in place (MPI.GROUP_EMPTY never is). */
    private void stale() throws MPIException {
        if (generation != org.fthp.replication.runtime.Engine.currentGeneration() && this != MPI.GROUP_EMPTY) {
            throw Errors.error(MPI.ERR_GROUP, "stale group: made before the job rolled back in place (make it"
                    + " again in the resilient body)");
        }
    }

    public int getSize() throws MPIException {
        return members().length;
    }

    public int getRank() throws MPIException {
        int me = MPI.COMM_WORLD.getRank();
        int[] m = members();
        for (int i = 0; i < m.length; i++) {
            if (m[i] == me) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        if (this == MPI.GROUP_EMPTY) {
            return;
        }
        stale();
        members = null;
        handle = 0;
    }

    public boolean isNull() {
        return members == null;
    }

    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        int[] a = group1.members();
        int[] b = group2.members();
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            if (r < 0 || r >= a.length) {
                throw Errors.error(MPI.ERR_RANK, "rank " + r + " is not in the first group");
            }
            out[i] = MPI.UNDEFINED;
            for (int j = 0; j < b.length; j++) {
                if (b[j] == a[r]) {
                    out[i] = j;
                }
            }
        }
        return out;
    }

    public static int compare(Group group1, Group group2) throws MPIException {
        int[] a = group1.members();
        int[] b = group2.members();
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        int[] sa = a.clone();
        int[] sb = b.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        return Arrays.equals(sa, sb) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    public static Group union(Group group1, Group group2) throws MPIException {
        Set<Integer> s = new LinkedHashSet<>();
        for (int v : group1.members()) {
            s.add(v);
        }
        for (int v : group2.members()) {
            s.add(v);
        }
        return new Group(s.stream().mapToInt(Integer::intValue).toArray());
    }

    public static Group intersection(Group group1, Group group2) throws MPIException {
        Set<Integer> other = toSet(group2.members());
        return new Group(Arrays.stream(group1.members()).filter(other::contains).toArray());
    }

    public static Group difference(Group group1, Group group2) throws MPIException {
        Set<Integer> other = toSet(group2.members());
        return new Group(Arrays.stream(group1.members()).filter(v -> !other.contains(v)).toArray());
    }

    private static Set<Integer> toSet(int[] a) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int v : a) {
            s.add(v);
        }
        return s;
    }

    public Group incl(int[] ranks) throws MPIException {
        int[] m = members();
        int[] out = new int[ranks.length];
        Set<Integer> seen = new LinkedHashSet<>();
        for (int i = 0; i < ranks.length; i++) {
            checkRank(ranks[i], m.length);
            if (!seen.add(ranks[i])) {
                throw Errors.error(MPI.ERR_RANK, "rank " + ranks[i] + " listed twice");
            }
            out[i] = m[ranks[i]];
        }
        return new Group(out);
    }

    public Group excl(int[] ranks) throws MPIException {
        int[] m = members();
        Set<Integer> drop = new LinkedHashSet<>();
        for (int r : ranks) {
            checkRank(r, m.length);
            if (!drop.add(r)) {
                throw Errors.error(MPI.ERR_RANK, "rank " + r + " listed twice");
            }
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < m.length; i++) {
            if (!drop.contains(i)) {
                out.add(m[i]);
            }
        }
        return new Group(out.stream().mapToInt(Integer::intValue).toArray());
    }

    public Group rangeIncl(int[][] ranges) throws MPIException {
        return incl(expand(ranges, members().length));
    }

    public Group rangeExcl(int[][] ranges) throws MPIException {
        return excl(expand(ranges, members().length));
    }

    private static int[] expand(int[][] ranges, int size) throws MPIException {
        List<Integer> out = new ArrayList<>();
        for (int[] r : ranges) {
            if (r.length < 3 || r[2] == 0) {
                throw Errors.error(MPI.ERR_ARG, "a range is {first, last, stride} with stride != 0");
            }
            for (int v = r[0]; r[2] > 0 ? v <= r[1] : v >= r[1]; v += r[2]) {
                checkRank(v, size);
                out.add(v);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void checkRank(int r, int size) throws MPIException {
        if (r < 0 || r >= size) {
            throw Errors.error(MPI.ERR_RANK, "rank " + r + " is not in a group of " + size);
        }
    }
}
