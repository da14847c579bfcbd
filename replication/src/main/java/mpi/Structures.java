package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.fthp.empi.Empi;
import org.fthp.replication.ops.CollectiveOp;
import org.fthp.replication.structure.CommStructure;

/**
 * Builds the structures of derived communicators from logical membership, so
 * the same code can rebuild them over a different set of native processes.
 *
 * <p>Communicator creation in MPI 3.1 has no nonblocking form except dup;
 * {@code MPI_Comm_create_group} is used because it involves only the members
 * (it is also what repair uses over the survivors).
 */
final class Structures {

    private Structures() {}

    static CommStructure dup(CommStructure parent) throws MPIException {
        int id = parent.nextChildId();
        long comm = idup(parent.cmp());
        return new CommStructure(id, comm, comm, idup(comm), parent.rank(), parent.worldRanks(),
                parent.remoteWorldRanks());
    }

    /** MPI_Comm_idup progressed by test loops, with errors returned. */
    static long idup(long comm) {
        long copy;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = Empi.allocateHandles(a, 1);
            CollectiveOp op = new CollectiveOp(Session.pool());
            op.start(req -> Empi.commIdup(comm, out, req), null);
            Session.await(op);
            copy = Empi.getHandle(out, 0);
        }
        Empi.commSetErrhandler(copy, Empi.ERRORS_RETURN);
        return copy;
    }

    /** Every member's pair of ints, gathered in rank order (nonblocking allgather underneath). */
    static int[] allGatherInts(long comm, int peers, int... mine) {
        CollectiveOp op = new CollectiveOp(Session.pool());
        MemorySegment send = op.stage(4L * mine.length);
        MemorySegment recv = op.stage(4L * mine.length * peers);
        MemorySegment.copy(mine, 0, send, ValueLayout.JAVA_INT, 0, mine.length);
        int[] all = new int[mine.length * peers];
        op.start(req -> Empi.iallgather(send, 4 * mine.length, Empi.BYTE, recv, 4 * mine.length, Empi.BYTE, comm, req),
                () -> MemorySegment.copy(recv, ValueLayout.JAVA_INT, 0, all, 0, all.length));
        Session.await(op);
        return all;
    }

    static CommStructure split(CommStructure parent, int color, int key) throws MPIException {
        int id = parent.nextChildId();
        int[] all = allGatherInts(parent.cmp(), parent.size(), color, key);
        if (color == MPI.UNDEFINED) {
            return null;
        }
        Integer[] members = java.util.stream.IntStream.range(0, parent.size())
                .filter(r -> all[2 * r] == color).boxed().toArray(Integer[]::new);
        Arrays.sort(members, (x, y) -> all[2 * x + 1] != all[2 * y + 1]
                ? Integer.compare(all[2 * x + 1], all[2 * y + 1]) : Integer.compare(x, y));
        int[] parentRanks = Arrays.stream(members).mapToInt(Integer::intValue).toArray();
        return fromMembers(parent, parentRanks, id ^ (color * 0x9E3779B9));
    }

    /** The communicator of the given parent ranks (in new rank order); null if this process is not one. */
    static CommStructure fromMembers(CommStructure parent, int[] parentRanks, int id) throws MPIException {
        int me = -1;
        for (int i = 0; i < parentRanks.length; i++) {
            if (parentRanks[i] == parent.rank()) {
                me = i;
            }
        }
        if (me < 0) {
            return null;
        }
        int[] parentWorld = parent.worldRanks();
        int[] world = new int[parentRanks.length];
        int[] nativeRanks = new int[parentRanks.length];
        for (int i = 0; i < parentRanks.length; i++) {
            world[i] = parentWorld[parentRanks[i]];
            nativeRanks[i] = parent.cmpRankOf(parentRanks[i]);
        }
        long comm;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment groupOut = Empi.allocateHandles(a, 1);
            Empi.commGroup(parent.cmp(), groupOut);
            long parentGroup = Empi.getHandle(groupOut, 0);
            MemorySegment ranks = a.allocateFrom(ValueLayout.JAVA_INT, nativeRanks);
            Empi.groupIncl(parentGroup, nativeRanks.length, ranks, groupOut);
            long group = Empi.getHandle(groupOut, 0);
            MemorySegment commOut = Empi.allocateHandles(a, 1);
            Empi.commCreateGroup(parent.cmp(), group, id & 0x3fff, commOut);
            comm = Empi.getHandle(commOut, 0);
            freeGroup(a, group);
            freeGroup(a, parentGroup);
        }
        Empi.commSetErrhandler(comm, Empi.ERRORS_RETURN);
        return new CommStructure(id, comm, comm, idup(comm), me, world, null);
    }

    private static void freeGroup(Arena a, long group) {
        MemorySegment g = Empi.allocateHandles(a, 1);
        Empi.setHandle(g, 0, group);
        Empi.groupFree(g);
    }

    /** Parent ranks, in group order, of the members of {@code worldRanks}; error if one is not in the parent. */
    static int[] parentRanksOf(CommStructure parent, int[] worldRanks) throws MPIException {
        int[] parentWorld = parent.worldRanks();
        int[] out = new int[worldRanks.length];
        for (int i = 0; i < worldRanks.length; i++) {
            int found = -1;
            for (int r = 0; r < parentWorld.length; r++) {
                if (parentWorld[r] == worldRanks[i]) {
                    found = r;
                }
            }
            if (found < 0) {
                throw Errors.error(MPI.ERR_GROUP, "group member " + worldRanks[i] + " is not in the communicator");
            }
            out[i] = found;
        }
        return out;
    }

    static int hashId(int seed, int[] a, int[] b) {
        int h = seed * 0x9E3779B9;
        for (int v : a) {
            h = h * 31 + v;
        }
        if (b != null) {
            for (int v : b) {
                h = h * 37 + v;
            }
        }
        h &= 0x7fffffff;
        return h < 16 ? h + 16 : h;
    }

    static CommStructure intercomm(CommStructure local, int localLeader, CommStructure peer, int remoteLeader, int tag)
            throws MPIException {
        Args.root(localLeader, local.size());
        long comm;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = Empi.allocateHandles(a, 1);
            int nativeRemoteLeader = local.rank() == localLeader ? peer.cmpRankOf(remoteLeader) : 0;
            Empi.intercommCreate(local.cmp(), localLeader, peer.cmp(), nativeRemoteLeader, tag, out);
            comm = Empi.getHandle(out, 0);
            Empi.commSetErrhandler(comm, Empi.ERRORS_RETURN);
        }
        int remoteSize = remoteSizeOf(comm);
        int[] localWorld = local.worldRanks();
        int[] remoteWorld = allGatherInts(comm, remoteSize, localWorld[local.rank()]);
        int[] lo = localWorld.clone();
        int[] hi = remoteWorld.clone();
        Arrays.sort(lo);
        Arrays.sort(hi);
        int id = lo[0] < hi[0] ? hashId(tag, lo, hi) : hashId(tag, hi, lo);
        return new CommStructure(id, comm, comm, idup(comm), local.rank(), localWorld, remoteWorld);
    }

    private static int remoteSizeOf(long comm) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
            Empi.commRemoteSize(comm, out);
            return out.get(ValueLayout.JAVA_INT, 0);
        }
    }

    static CommStructure merge(CommStructure inter, boolean high) throws MPIException {
        long comm;
        int rank;
        int size;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = Empi.allocateHandles(a, 1);
            Empi.intercommMerge(inter.cmp(), high ? 1 : 0, out);
            comm = Empi.getHandle(out, 0);
            Empi.commSetErrhandler(comm, Empi.ERRORS_RETURN);
            MemorySegment n = a.allocate(ValueLayout.JAVA_INT);
            Empi.commRank(comm, n);
            rank = n.get(ValueLayout.JAVA_INT, 0);
            Empi.commSize(comm, n);
            size = n.get(ValueLayout.JAVA_INT, 0);
        }
        int[] world = allGatherInts(comm, size, inter.worldRanks()[inter.rank()]);
        return new CommStructure(hashId(inter.commId() ^ 0x5bd1e995, world, null), comm, comm, idup(comm), rank,
                world, null);
    }

    static void free(CommStructure s) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = Empi.allocateHandles(a, 1);
            Empi.setHandle(h, 0, s.internal());
            Empi.commFree(h);
            Empi.setHandle(h, 0, s.cmp());
            Empi.commFree(h);
        }
    }
}
