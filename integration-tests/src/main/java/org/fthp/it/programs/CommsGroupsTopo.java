package org.fthp.it.programs;

import mpi.CartComm;
import mpi.CartParms;
import mpi.Comm;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * Communicators, groups and topologies: dup/split/create/createGroup, Group algebra,
 * Comm.compare, names, attributes, CartComm, GraphComm and distributed graphs, each
 * derived communicator proven usable by a ring sendRecv and an allReduce.
 */
public final class CommsGroupsTopo {

    static Intracomm w;
    static int rank, size;
    static Group worldGroup;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        w = MPI.COMM_WORLD;
        rank = w.getRank();
        size = w.getSize();
        Check.runAll(w, "CommsGroupsTopo", () -> {
            worldGroup = w.getGroup();
            dupAndCompare();
            splits();
            createFromGroups();
            groups();
            namesAndAttributes();
            cart();
            graph();
            distGraph();
            worldGroup.free();
        });
        MPI.Finalize();
    }

    /** World rank of every rank of c, via its group. */
    static int[] worldRanks(Comm c) throws MPIException {
        Group g = c.getGroup();
        int[] idx = new int[g.getSize()];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        int[] t = Group.translateRanks(g, idx, worldGroup);
        g.free();
        return t;
    }

    /** Ring sendRecv and allReduce on c; proves the communicator moves data among its own members. */
    static void exercise(Intracomm c, String what) throws MPIException {
        int n = c.getSize(), me = c.getRank();
        int[] wr = worldRanks(c);
        Check.equal(rank, wr[me], what + ": my world rank via group");
        int right = (me + 1) % n, left = (me - 1 + n) % n;
        int[] in = new int[2];
        c.sendRecv(new int[] {me * 1000 + rank, 7}, 2, MPI.INT, right, 31, in, 2, MPI.INT, left, 31);
        Check.array(new int[] {left * 1000 + wr[left], 7}, in, what + ": ring sendRecv");
        long[] sum = new long[2];
        c.allReduce(new long[] {rank, 1}, sum, 2, MPI.LONG, MPI.SUM);
        long e = 0;
        for (int x : wr) e += x;
        Check.equal(e, sum[0], what + ": allReduce of world ranks");
        Check.equal(n, sum[1], what + ": allReduce count");
    }

    static void dupAndCompare() throws MPIException {
        Check.equal(MPI.IDENT, Comm.compare(w, w), "compare(world, world)");
        Intracomm d = w.dup();
        Check.equal(size, d.getSize(), "dup size");
        Check.equal(rank, d.getRank(), "dup rank");
        Check.equal(MPI.CONGRUENT, Comm.compare(w, d), "compare(world, dup)");
        exercise(d, "dup");
        Intracomm c = d.clone();
        Check.equal(MPI.CONGRUENT, Comm.compare(d, c), "compare(dup, clone)");
        c.free();
        Check.that(c.isNull(), "freed clone isNull");
        d.free();
        Check.that(d.isNull(), "freed dup isNull");
        Check.that(!w.isNull(), "world is not null");
    }

    static void splits() throws MPIException {
        // parity split with reversed keys
        Intracomm par = w.split(rank % 2, -rank);
        int members = (size - rank % 2 + 1) / 2;
        Check.equal(members, par.getSize(), "parity split size");
        int higher = 0; // members with a larger world rank come first (key -rank)
        for (int r = rank + 2; r < size; r += 2) higher++;
        Check.equal(higher, par.getRank(), "parity split rank ordered by key");
        Check.equal(MPI.UNEQUAL, Comm.compare(w, par), "compare(world, parity split)");
        exercise(par, "parity split");

        // same group, reversed order -> SIMILAR
        Intracomm rev = w.split(0, size - 1 - rank);
        Check.equal(size - 1 - rank, rev.getRank(), "reversed split rank");
        Check.equal(MPI.SIMILAR, Comm.compare(w, rev), "compare(world, reversed split)");
        exercise(rev, "reversed split");

        // UNDEFINED colour
        Intracomm u = w.split(rank == 0 ? MPI.UNDEFINED : 3, rank);
        if (rank == 0) {
            Check.that(u.isNull(), "split with MPI.UNDEFINED gives a null communicator");
        } else {
            Check.that(!u.isNull(), "split member not null");
            Check.equal(size - 1, u.getSize(), "split without rank 0 size");
            Check.equal(rank - 1, u.getRank(), "split without rank 0 rank");
            exercise(u, "split without rank 0");
            u.free();
        }
        par.free();
        rev.free();
    }

    static void createFromGroups() throws MPIException {
        // create(Group) over the whole world: all but rank 0, in reverse world order
        int[] order = new int[size - 1];
        for (int i = 0; i < size - 1; i++) order[i] = size - 1 - i;
        Group g = worldGroup.incl(order);
        Intracomm c = w.create(g);
        if (rank == 0) {
            Check.that(c.isNull(), "create: non-member gets a null communicator");
        } else {
            Check.equal(size - 1, c.getSize(), "create size");
            Check.equal(size - 1 - rank, c.getRank(), "create rank follows group order");
            exercise(c, "create(Group)");
            c.free();
        }
        g.free();

        // createGroup(Group, tag): only the members (even world ranks) call it
        Group evens = worldGroup.rangeIncl(new int[][] {{0, size - 1, 2}});
        if (rank % 2 == 0) {
            Intracomm ce = w.createGroup(evens, 17);
            Check.equal((size + 1) / 2, ce.getSize(), "createGroup size");
            Check.equal(rank / 2, ce.getRank(), "createGroup rank");
            exercise(ce, "createGroup");
            ce.free();
        }
        evens.free();
        w.barrier();
    }

    static void groups() throws MPIException {
        Check.equal(size, worldGroup.getSize(), "world group size");
        Check.equal(rank, worldGroup.getRank(), "world group rank");

        Group rev = worldGroup.incl(new int[] {size - 1, 0});
        Check.equal(2, rev.getSize(), "incl size");
        Check.equal(rank == size - 1 ? 0 : rank == 0 ? 1 : MPI.UNDEFINED, rev.getRank(), "incl rank");

        Group noZero = worldGroup.excl(new int[] {0});
        Check.equal(size - 1, noZero.getSize(), "excl size");
        Check.equal(rank == 0 ? MPI.UNDEFINED : rank - 1, noZero.getRank(), "excl rank");

        Group evens = worldGroup.rangeIncl(new int[][] {{0, size - 1, 2}});
        Group odds = worldGroup.rangeIncl(new int[][] {{1, size - 1, 2}});
        Group odds2 = worldGroup.rangeExcl(new int[][] {{0, size - 1, 2}});
        Check.equal(MPI.IDENT, Group.compare(odds, odds2), "rangeExcl(evens) IDENT rangeIncl(odds)");
        Check.equal((size + 1) / 2, evens.getSize(), "rangeIncl evens size");
        Check.equal(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.getRank(), "rangeIncl evens rank");

        Group un = Group.union(evens, odds);
        Check.equal(size, un.getSize(), "union size");
        Check.equal(size == 2 ? MPI.IDENT : MPI.SIMILAR, Group.compare(un, worldGroup), "compare(evens u odds, world)");
        int[] all = new int[size];
        for (int i = 0; i < size; i++) all[i] = i;
        int[] inUnion = Group.translateRanks(worldGroup, all, un);
        for (int r = 0; r < size; r++)
            Check.equal(r % 2 == 0 ? r / 2 : (size + 1) / 2 + r / 2, inUnion[r], "translateRanks world->union " + r);

        Group none = Group.intersection(evens, odds);
        Check.equal(0, none.getSize(), "intersection of evens and odds is empty");
        Check.equal(MPI.IDENT, Group.compare(none, MPI.GROUP_EMPTY), "empty intersection IDENT GROUP_EMPTY");
        Group firstHalf = worldGroup.rangeIncl(new int[][] {{0, size / 2 - 1, 1}});
        Group inter = Group.intersection(evens, firstHalf); // even ranks < size/2: just {0} for np 2 and 4
        Check.equal(1, inter.getSize(), "intersection size");
        Check.array(new int[] {0}, Group.translateRanks(inter, new int[] {0}, worldGroup), "intersection member");

        Group diff = Group.difference(worldGroup, evens);
        Check.equal(MPI.IDENT, Group.compare(diff, odds), "world \\ evens IDENT odds");
        int[] toOdds = Group.translateRanks(worldGroup, all, odds);
        for (int r = 0; r < size; r++)
            Check.equal(r % 2 == 1 ? r / 2 : MPI.UNDEFINED, toOdds[r], "translateRanks world->odds " + r);
        Check.equal(MPI.UNEQUAL, Group.compare(evens, odds), "compare(evens, odds)");
        Check.equal(size == 2 ? MPI.SIMILAR : MPI.UNEQUAL, Group.compare(rev, worldGroup), "compare(incl({size-1,0}), world)");

        for (Group g : new Group[] {rev, noZero, evens, odds, odds2, un, none, firstHalf, inter, diff}) g.free();
    }

    static void namesAndAttributes() throws MPIException {
        Check.equal("MPI_COMM_WORLD", w.getName(), "COMM_WORLD name");
        Intracomm d = w.dup();
        d.setName("fthp-dup-" + rank);
        Check.equal("fthp-dup-" + rank, d.getName(), "setName/getName");

        Object tagUb = w.getAttr(MPI.TAG_UB);
        Check.that(tagUb instanceof Integer, "TAG_UB attribute is an Integer, got " + tagUb);
        Check.that((Integer) tagUb >= 32767, "TAG_UB >= 32767, got " + tagUb);

        int key = Comm.createKeyval();
        Check.that(d.getAttr(key) == null, "unset attribute is null");
        d.setAttr(key, "value-" + rank);
        Check.equal("value-" + rank, d.getAttr(key), "getAttr String");
        d.setAttr(key, new int[] {rank, 42});
        Object got = d.getAttr(key);
        Check.that(got instanceof int[], "getAttr int[] type");
        Check.array(new int[] {rank, 42}, (int[]) got, "getAttr int[] value (replaced)");
        Check.that(w.getAttr(key) == null, "attribute is per communicator");
        d.deleteAttr(key);
        Check.that(d.getAttr(key) == null, "deleted attribute is null");
        Comm.freeKeyval(key);
        d.free();
        Check.that(d.isNull(), "freed named dup isNull");
    }

    static void checkShift(CartComm c, int dim, int extent, boolean periodic, int[] coords, String what) throws MPIException {
        for (int disp : new int[] {1, -1}) {
            ShiftParms sp = c.shift(dim, disp);
            int s = coords[dim] - disp, d = coords[dim] + disp;
            int[] cs = coords.clone(), cd = coords.clone();
            int expSrc, expDst;
            if (periodic) {
                cs[dim] = Math.floorMod(s, extent);
                cd[dim] = Math.floorMod(d, extent);
                expSrc = c.getRank(cs);
                expDst = c.getRank(cd);
            } else {
                cs[dim] = s;
                cd[dim] = d;
                expSrc = s < 0 || s >= extent ? MPI.PROC_NULL : c.getRank(cs);
                expDst = d < 0 || d >= extent ? MPI.PROC_NULL : c.getRank(cd);
            }
            Check.equal(expSrc, sp.getRankSource(), what + " shift(" + dim + "," + disp + ") source");
            Check.equal(expDst, sp.getRankDest(), what + " shift(" + dim + "," + disp + ") dest");
            // data along the shift; MPI.PROC_NULL partners make that side a no-op
            int[] in = {-1};
            c.sendRecv(new int[] {c.getRank()}, 1, MPI.INT, sp.getRankDest(), 40, in, 1, MPI.INT, sp.getRankSource(), 40);
            Check.equal(expSrc == MPI.PROC_NULL ? -1 : expSrc, in[0], what + " data along shift");
        }
    }

    static void cart() throws MPIException {
        int[] d12 = new int[2];
        CartComm.createDims(12, d12);
        Check.array(new int[] {4, 3}, d12, "createDims(12, 2 dims)");
        int[] fixed = {0, 3};
        CartComm.createDims(6, fixed);
        Check.array(new int[] {2, 3}, fixed, "createDims(6, {0,3})");

        int ndims = size == 4 ? 2 : 1;
        int[] dims = new int[ndims];
        CartComm.createDims(size, dims);
        Check.array(size == 4 ? new int[] {2, 2} : new int[] {2}, dims, "createDims(np)");
        boolean[] periods = ndims == 2 ? new boolean[] {true, false} : new boolean[] {false};
        CartComm c = w.createCart(dims, periods, false);
        Check.equal(MPI.CART, c.getTopology(), "cart getTopology");
        Check.equal(MPI.UNDEFINED, w.getTopology(), "world getTopology");
        Check.equal(rank, c.getRank(), "cart rank without reorder");
        int[] coords = c.getCoords(c.getRank());
        int[] expCoords = ndims == 2 ? new int[] {rank / 2, rank % 2} : new int[] {rank};
        Check.array(expCoords, coords, "getCoords (row-major)");
        Check.equal(rank, c.getRank(coords), "getRank(coords)");
        for (int r = 0; r < size; r++) Check.equal(r, c.getRank(c.getCoords(r)), "getRank(getCoords(" + r + "))");
        CartParms p = c.getTopo();
        Check.equal(ndims, p.getDimCount(), "getTopo dim count");
        for (int i = 0; i < ndims; i++) {
            Check.equal(dims[i], p.getDim(i), "getTopo dim " + i);
            Check.that(p.getPeriod(i) == periods[i], "getTopo period " + i);
            Check.equal(coords[i], p.getCoord(i), "getTopo coord " + i);
        }
        for (int i = 0; i < ndims; i++) checkShift(c, i, dims[i], periods[i], coords, "cart");
        exercise(c, "cart");

        // periodic 1-D ring (both np)
        CartComm ring = w.createCart(new int[] {size}, new boolean[] {true}, false);
        checkShift(ring, 0, size, true, new int[] {rank}, "periodic ring");
        CartComm dupRing = ring.dup();
        Check.equal(MPI.CART, dupRing.getTopology(), "dup keeps cart topology");
        Check.equal(MPI.CONGRUENT, Comm.compare(ring, dupRing), "compare(ring, dup ring)");
        exercise(dupRing, "dup of cart");
        dupRing.free();
        ring.free();

        // sub: keep the last dimension
        boolean[] remain = ndims == 2 ? new boolean[] {false, true} : new boolean[] {true};
        CartComm sub = c.sub(remain);
        Check.equal(dims[ndims - 1], sub.getSize(), "sub size");
        Check.equal(coords[ndims - 1], sub.getRank(), "sub rank");
        CartParms sp = sub.getTopo();
        Check.equal(1, sp.getDimCount(), "sub dim count");
        Check.equal(dims[ndims - 1], sp.getDim(0), "sub dim");
        Check.that(sp.getPeriod(0) == periods[ndims - 1], "sub period");
        exercise(sub, "cart sub");
        if (ndims == 2) {
            int[] wr = worldRanks(sub);
            Check.array(new int[] {coords[0] * 2, coords[0] * 2 + 1}, wr, "sub row members");
        }
        sub.free();
        c.free();
    }

    static int[] ringNeighbors(int r) {
        int right = (r + 1) % size, left = (r - 1 + size) % size;
        return left == right ? new int[] {right} : new int[] {right, left};
    }

    static void graph() throws MPIException {
        int[] index = new int[size];
        int[] edges = new int[size * 2];
        int ne = 0;
        for (int r = 0; r < size; r++) {
            for (int x : ringNeighbors(r)) edges[ne++] = x;
            index[r] = ne;
        }
        edges = java.util.Arrays.copyOf(edges, ne);
        GraphComm g = w.createGraph(index, edges, false);
        Check.equal(MPI.GRAPH, g.getTopology(), "graph getTopology");
        GraphParms gp = g.getDims();
        Check.equal(size, gp.getIndexCount(), "graph node count");
        Check.equal(ne, gp.getEdgeCount(), "graph edge count");
        for (int i = 0; i < size; i++) Check.equal(index[i], gp.getIndex(i), "graph index " + i);
        for (int i = 0; i < ne; i++) Check.equal(edges[i], gp.getEdge(i), "graph edge " + i);
        for (int r = 0; r < size; r++) Check.array(ringNeighbors(r), g.getNeighbors(r), "getNeighbors(" + r + ")");
        exercise(g, "graph");
        // neighbour collective follows the adjacency order of getNeighbors
        int[] nb = g.getNeighbors(rank);
        int[] got = new int[nb.length];
        g.neighborAllGather(new int[] {rank * 3}, 1, MPI.INT, got, 1, MPI.INT);
        for (int i = 0; i < nb.length; i++) Check.equal(nb[i] * 3, got[i], "graph neighborAllGather " + i);
        g.free();
    }

    static void distGraph() throws MPIException {
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        GraphComm dg = w.createDistGraphAdjacent(new int[] {left}, new int[] {right}, MPI.INFO_NULL, false);
        Check.equal(MPI.DIST_GRAPH, dg.getTopology(), "dist graph getTopology");
        DistGraphNeighbors n = dg.getDistGraphNeighbors();
        Check.equal(1, n.getInDegree(), "in degree");
        Check.equal(1, n.getOutDegree(), "out degree");
        Check.equal(left, n.getSource(0), "source");
        Check.equal(right, n.getDestination(0), "destination");
        Check.that(!n.isWeighted(), "unweighted");
        exercise(dg, "dist graph");
        int[] got = {-1};
        dg.neighborAllGather(new int[] {rank + 500}, 1, MPI.INT, got, 1, MPI.INT);
        Check.equal(left + 500, got[0], "dist graph neighborAllGather from the source");
        dg.free();

        // weighted: two sources (left, right) and one destination (right), plus the reverse edge to left
        int[] srcs = size == 2 ? new int[] {left} : new int[] {left, right};
        int[] sw = size == 2 ? new int[] {10 + rank} : new int[] {10 + rank, 20 + rank};
        int[] dsts = size == 2 ? new int[] {right} : new int[] {right, left};
        int[] dw = size == 2 ? new int[] {30 + rank} : new int[] {30 + rank, 40 + rank};
        GraphComm wg = w.createDistGraphAdjacent(srcs, sw, dsts, dw, MPI.INFO_NULL, false);
        DistGraphNeighbors wn = wg.getDistGraphNeighbors();
        Check.that(wn.isWeighted(), "weighted");
        Check.equal(srcs.length, wn.getInDegree(), "weighted in degree");
        Check.equal(dsts.length, wn.getOutDegree(), "weighted out degree");
        for (int i = 0; i < srcs.length; i++) {
            Check.equal(srcs[i], wn.getSource(i), "weighted source " + i);
            Check.equal(sw[i], wn.getSourceWeight(i), "source weight " + i);
        }
        for (int i = 0; i < dsts.length; i++) {
            Check.equal(dsts[i], wn.getDestination(i), "weighted destination " + i);
            Check.equal(dw[i], wn.getDestinationWeight(i), "destination weight " + i);
        }
        exercise(wg, "weighted dist graph");
        wg.free();
    }
}
