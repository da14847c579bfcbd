package org.fthp.it.programs;

import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Intercommunicator between the two halves of COMM_WORLD: point-to-point across,
 * rooted collectives with MPI.ROOT / MPI.PROC_NULL, allReduce / allGather over the remote
 * group, remote group queries and merge into an Intracomm.
 */
public final class CollInter {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        Check.runAll(w, "CollInter", () -> {
            run(w);
        });
        MPI.Finalize();
    }

    static void run(Intracomm w) throws MPIException {
        int rank = w.getRank(), size = w.getSize();
        Check.that(size >= 2, "needs at least 2 ranks");
        int lowSize = size / 2, highSize = size - lowSize;
        boolean low = rank < lowSize;
        int mySize = low ? lowSize : highSize, remoteSize = low ? highSize : lowSize;
        int firstRemote = low ? lowSize : 0; // world rank of remote rank 0

        Intracomm local = w.split(low ? 0 : 1, rank);
        Check.equal(mySize, local.getSize(), "local half size");
        int lr = local.getRank();
        Check.equal(low ? rank : rank - lowSize, lr, "rank in local half");

        Intercomm inter = w.createIntercomm(local, 0, low ? lowSize : 0, 99);
        Check.that(inter.isInter(), "createIntercomm result isInter()");
        Check.that(!local.isInter(), "split result is not inter");
        Check.equal(mySize, inter.getSize(), "intercomm getSize = local group size");
        Check.equal(lr, inter.getRank(), "intercomm getRank = rank in local group");
        Check.equal(remoteSize, inter.getRemoteSize(), "getRemoteSize");

        Group rg = inter.getRemoteGroup();
        Check.equal(remoteSize, rg.getSize(), "remote group size");
        Check.equal(MPI.UNDEFINED, rg.getRank(), "I am not in the remote group");
        int[] idx = new int[remoteSize];
        for (int i = 0; i < remoteSize; i++) idx[i] = i;
        Group wg = w.getGroup();
        int[] inWorld = Group.translateRanks(rg, idx, wg);
        for (int i = 0; i < remoteSize; i++) Check.equal(firstRemote + i, inWorld[i], "remote group rank " + i + " in world");
        Group lg = inter.getGroup();
        Check.equal(mySize, lg.getSize(), "intercomm getGroup = local group");
        Check.equal(lr, lg.getRank(), "my rank in local group");
        Check.equal(MPI.IDENT, Group.compare(lg, local.getGroup()), "intercomm local group IDENT to split group");
        rg.free();
        lg.free();
        wg.free();

        // point-to-point across: local rank i pairs with remote rank i (halves have equal size for even np)
        if (lr < remoteSize) {
            int[] sb = {rank * 10, rank * 10 + 1};
            int[] rb = new int[2];
            inter.sendRecv(sb, 2, MPI.INT, lr, 5, rb, 2, MPI.INT, lr, 5);
            Check.array(new int[] {(firstRemote + lr) * 10, (firstRemote + lr) * 10 + 1}, rb, "sendRecv across intercomm");
            // plain send/recv, low side sends first
            int[] x = new int[1];
            if (low) {
                inter.send(new int[] {rank + 1000}, 1, MPI.INT, lr, 6);
                inter.recv(x, 1, MPI.INT, lr, 7);
            } else {
                inter.recv(x, 1, MPI.INT, lr, 6);
                inter.send(new int[] {rank + 2000}, 1, MPI.INT, lr, 7);
            }
            Check.equal(firstRemote + lr + (low ? 2000 : 1000), x[0], "send/recv across intercomm");
        }

        inter.barrier();

        // bcast from low group rank 0 to the high group
        int[] b = {-1, -1, -1};
        if (low) {
            if (lr == 0) b = new int[] {11, 22, 33};
            inter.bcast(b, 3, MPI.INT, lr == 0 ? MPI.ROOT : MPI.PROC_NULL);
            if (lr == 0) Check.array(new int[] {11, 22, 33}, b, "bcast root buffer unchanged");
            else Check.array(new int[] {-1, -1, -1}, b, "bcast PROC_NULL rank's buffer untouched");
        } else {
            inter.bcast(b, 3, MPI.INT, 0);
            Check.array(new int[] {11, 22, 33}, b, "bcast received from remote root");
        }
        // bcast from the last rank of the high group to the low group
        double[] d = {0, 0};
        if (!low) {
            if (lr == highSize - 1) d = new double[] {2.5, -7.25};
            inter.bcast(d, 2, MPI.DOUBLE, lr == highSize - 1 ? MPI.ROOT : MPI.PROC_NULL);
        } else {
            inter.bcast(d, 2, MPI.DOUBLE, highSize - 1);
            Check.array(new double[] {2.5, -7.25}, d, "bcast from high group root");
        }

        // allReduce: result is the reduction over the remote group
        int[] send = {rank + 1, (rank + 1) * (rank + 1), low ? 1 : 100};
        int[] recv = new int[3];
        inter.allReduce(send, recv, 3, MPI.INT, MPI.SUM);
        int e0 = 0, e1 = 0;
        for (int i = 0; i < remoteSize; i++) {
            int r = firstRemote + i;
            e0 += r + 1;
            e1 += (r + 1) * (r + 1);
        }
        Check.array(new int[] {e0, e1, remoteSize * (low ? 100 : 1)}, recv, "intercomm allReduce SUM = over remote group");
        long[] mx = new long[1];
        inter.allReduce(new long[] {rank}, mx, 1, MPI.LONG, MPI.MAX);
        Check.equal(firstRemote + remoteSize - 1, mx[0], "intercomm allReduce MAX");

        // reduce: high group contributes, low rank 0 is the root
        int[] red = {-1, -1};
        if (low) {
            inter.reduce(new int[] {0, 0}, red, 2, MPI.INT, MPI.SUM, lr == 0 ? MPI.ROOT : MPI.PROC_NULL);
            if (lr == 0) {
                int s = 0;
                for (int r = lowSize; r < size; r++) s += r;
                Check.array(new int[] {s, highSize * 3}, red, "intercomm reduce at ROOT");
            }
        } else {
            inter.reduce(new int[] {rank, 3}, red, 2, MPI.INT, MPI.SUM, 0);
        }

        // allGather: I receive the remote group's blocks in remote rank order
        int[] ag = new int[2 * remoteSize];
        inter.allGather(new int[] {rank, -rank}, 2, MPI.INT, ag, 2, MPI.INT);
        for (int i = 0; i < remoteSize; i++) {
            Check.equal(firstRemote + i, ag[2 * i], "intercomm allGather [" + i + "]");
            Check.equal(-(firstRemote + i), ag[2 * i + 1], "intercomm allGather [" + i + "] second");
        }

        // dup keeps the structure
        Intercomm dup = inter.dup();
        Check.that(dup.isInter(), "dup of intercomm is inter");
        Check.equal(remoteSize, dup.getRemoteSize(), "dup remote size");
        int[] one = new int[1];
        dup.allReduce(new int[] {1}, one, 1, MPI.INT, MPI.SUM);
        Check.equal(remoteSize, one[0], "allReduce on dup'ed intercomm");
        dup.free();
        Check.that(dup.isNull(), "freed dup isNull");

        // merge: the low half asks for high=true, so the high half comes first
        Intracomm merged = inter.merge(low);
        Check.that(!merged.isInter(), "merged is an intracomm");
        Check.equal(size, merged.getSize(), "merged size");
        int expRank = low ? highSize + rank : rank - lowSize;
        Check.equal(expRank, merged.getRank(), "merged rank (high group first)");
        int[] order = new int[size];
        merged.allGather(new int[] {rank}, 1, MPI.INT, order, 1, MPI.INT);
        for (int m = 0; m < size; m++) {
            int expWorld = m < highSize ? lowSize + m : m - highSize;
            Check.equal(expWorld, order[m], "merged rank " + m + " is world rank");
        }
        int[] tot = new int[1];
        merged.allReduce(new int[] {rank}, tot, 1, MPI.INT, MPI.SUM);
        Check.equal(size * (size - 1) / 2, tot[0], "allReduce on merged");

        merged.free();
        inter.free();
        local.free();
        Check.that(inter.isNull(), "freed intercomm isNull");
    }
}
