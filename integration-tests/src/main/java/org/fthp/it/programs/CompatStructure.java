package org.fthp.it.programs;

import java.nio.IntBuffer;
import java.util.Arrays;

import mpi.CartComm;
import mpi.Comm;
import mpi.DistGraphNeighbors;
import mpi.Errhandler;
import mpi.File;
import mpi.GraphComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * What programs written for Open MPI's Java binding expect of communicator
 * structure, each checked against the binding's behaviour:
 * <ul>
 *   <li>COMM_WORLD's predefined attributes, with the logical job's values,
 *       inherited by a dup (but not LASTUSEDCODE), absent from a split;
 *   <li>attribute caching: values by copy, copied on dup (on a Cartesian
 *       and a graph communicator too), gone with a freed communicator,
 *       ERR_KEYVAL for predefined and freed keyvals;
 *   <li>callErrhandler: ERRORS_RETURN returns normally; Win and File error
 *       handlers, attributes and names, their data operations refused through
 *       their handlers;
 *   <li>createDistGraph in its three shapes (each process its out-edges,
 *       its in-edges, rank 0 all of them), with arrays sized for the worst
 *       case as the ompi-java tests pass them, weights, dups, and a
 *       neighbourhood allGather on the graph.
 * </ul>
 */
public final class CompatStructure {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        Check.runAll(w, "CompatStructure", () -> {
            predefinedAttributes(w);
            attributeCaching(w);
            errorHandlers(w);
            distGraphs(w);
        });
        MPI.Finalize();
    }

    static void predefinedAttributes(Intracomm w) throws MPIException {
        int size = w.getSize();
        Object bound = w.getAttr(MPI.TAG_UB);
        // the facade's user tag bound, or the native library's when that is lower (MPICH 4.0 over UCX: 2^28-1)
        Check.that(Integer.valueOf((1 << 30) - 1).equals(bound) || Integer.valueOf((1 << 28) - 1).equals(bound),
                "TAG_UB: the facade's user tag bound (2^30-1, or MPICH's 2^28-1), got " + bound);
        Check.equal(Integer.valueOf(MPI.PROC_NULL), w.getAttr(MPI.HOST), "HOST");
        Check.equal(Integer.valueOf(MPI.ANY_SOURCE), w.getAttr(MPI.IO), "IO");
        Check.equal(Boolean.FALSE, w.getAttr(MPI.WTIME_IS_GLOBAL), "WTIME_IS_GLOBAL");
        Check.equal(Integer.valueOf(0), w.getAttr(MPI.APPNUM), "APPNUM");
        Check.equal(Integer.valueOf(size), w.getAttr(MPI.UNIVERSE_SIZE), "UNIVERSE_SIZE: the logical size");
        Check.equal(Integer.valueOf(MPI.ERR_LASTCODE), w.getAttr(MPI.LASTUSEDCODE), "LASTUSEDCODE");
        // the largest tag the attribute promises is accepted
        int tagUb = (Integer) w.getAttr(MPI.TAG_UB);
        int rank = w.getRank();
        int[] in = new int[1];
        w.sendRecv(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, tagUb, in, 1, MPI.INT,
                (rank - 1 + size) % size, tagUb);
        Check.equal((rank - 1 + size) % size, in[0], "sendRecv at tag TAG_UB");

        Intracomm d = w.dup();
        Check.equal(Integer.valueOf(tagUb), d.getAttr(MPI.TAG_UB), "a dup inherits TAG_UB");
        Check.equal(Integer.valueOf(size), d.getAttr(MPI.UNIVERSE_SIZE), "a dup inherits UNIVERSE_SIZE");
        Check.that(d.getAttr(MPI.LASTUSEDCODE) == null, "a dup does not inherit LASTUSEDCODE");
        Intracomm s = w.split(0, rank);
        Check.that(s.getAttr(MPI.TAG_UB) == null, "a split has no predefined attributes");
        s.free();
        d.free();
        w.setErrhandler(MPI.ERRORS_RETURN);
        try {
            w.setAttr(MPI.TAG_UB, 5);
            Check.that(false, "setting TAG_UB must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_KEYVAL, e.getErrorClass(), "set a predefined attribute: error class");
        }
        try {
            w.deleteAttr(MPI.UNIVERSE_SIZE);
            Check.that(false, "deleting UNIVERSE_SIZE must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_KEYVAL, e.getErrorClass(), "delete a predefined attribute: error class");
        }
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }

    static void attributeCaching(Intracomm w) throws MPIException {
        int rank = w.getRank();
        int key = Comm.createKeyval();
        int other = Comm.createKeyval();
        Check.that(key != other, "two keyvals differ");
        Intracomm d = w.dup();
        int[] value = {rank, 1};
        d.setAttr(key, value);
        value[1] = 2; // the binding stores a copy: this change does not show
        Check.array(new int[] {rank, 1}, (int[]) d.getAttr(key), "attribute stored by value");
        ((int[]) d.getAttr(key))[0] = -1; // nor does a change to what getAttr returned
        Check.array(new int[] {rank, 1}, (int[]) d.getAttr(key), "getAttr returns a copy");
        d.setAttr(other, "other-" + rank);

        Intracomm dd = d.dup();
        Check.array(new int[] {rank, 1}, (int[]) dd.getAttr(key), "dup copies the attribute");
        Check.equal("other-" + rank, dd.getAttr(other), "dup copies every attribute");
        dd.setAttr(key, new int[] {rank, 3});
        Check.array(new int[] {rank, 1}, (int[]) d.getAttr(key), "the copy is independent of the original");
        Intracomm cl = d.clone();
        Check.equal("other-" + rank, cl.getAttr(other), "clone copies attributes");
        cl.free();
        dd.free();

        CartComm cart = w.createCart(new int[] {w.getSize()}, new boolean[] {true}, false);
        Check.that(cart.getAttr(key) == null, "a new Cartesian communicator has no attributes");
        cart.setAttr(key, 77L);
        CartComm cart2 = cart.dup();
        Check.equal(77L, cart2.getAttr(key), "a Cartesian dup copies attributes");
        cart2.free();
        cart.free();

        w.setErrhandler(MPI.ERRORS_RETURN); // keyval errors go to COMM_WORLD's handler
        d.setErrhandler(MPI.ERRORS_RETURN);
        Comm.freeKeyval(other);
        Check.equal("other-" + rank, d.getAttr(other), "a value outlives its freed keyval");
        try {
            d.setAttr(other, "again");
            Check.that(false, "setting a freed keyval must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_KEYVAL, e.getErrorClass(), "set with a freed keyval: error class");
        }
        try {
            Comm.freeKeyval(other);
            Check.that(false, "freeing a keyval twice must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_KEYVAL, e.getErrorClass(), "free a keyval twice: error class");
        }
        try {
            d.setAttr(key, new Object()); // the binding serializes values
            Check.that(false, "a value that cannot be serialized must be refused");
        } catch (MPIException e) {
            Check.array(new int[] {rank, 1}, (int[]) d.getAttr(key), "a refused value leaves the old one");
        }
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
        d.deleteAttr(key);
        Check.that(d.getAttr(key) == null, "deleted attribute");
        d.free();
        Comm.freeKeyval(key);
    }

    static void errorHandlers(Intracomm w) throws MPIException {
        Intracomm d = w.dup();
        Check.that(d.getErrhandler() == MPI.ERRORS_ARE_FATAL, "a dup of COMM_WORLD has its handler");
        d.setErrhandler(MPI.ERRORS_RETURN);
        Check.that(d.getErrhandler() == MPI.ERRORS_RETURN, "getErrhandler after set");
        d.callErrhandler(MPI.ERR_COMM); // ERRORS_RETURN: MPI_SUCCESS, no exception (the binding's behaviour)
        d.callErrhandler(MPI.ERR_OTHER);
        d.free();

        IntBuffer base = MPI.newIntBuffer(4);
        Win win = new Win(base, 4, 4, MPI.INFO_NULL, w);
        Errhandler winDefault = win.getErrhandler();
        Check.that(winDefault == MPI.ERRORS_ARE_FATAL, "a window's default handler is ERRORS_ARE_FATAL");
        win.setErrhandler(MPI.ERRORS_RETURN);
        Check.that(win.getErrhandler() == MPI.ERRORS_RETURN, "window getErrhandler after set");
        win.callErrhandler(MPI.ERR_WIN);
        Check.equal(Integer.valueOf(4), win.getAttr(MPI.WIN_SIZE), "WIN_SIZE");
        Check.equal(Integer.valueOf(4), win.getAttr(MPI.WIN_DISP_UNIT), "WIN_DISP_UNIT");
        int wkey = Win.createKeyval();
        win.setAttr(wkey, "win-attr");
        Check.equal("win-attr", win.getAttr(wkey), "window attribute");
        win.setName("my-window");
        Check.equal("my-window", win.getName(), "window name");
        Check.equal(w.getSize(), win.getGroup().getSize(), "window group");
        try {
            win.fence(0);
            Check.that(false, "one-sided operations are refused");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_UNSUPPORTED_OPERATION, e.getErrorClass(), "fence: error class");
        }
        win.setErrhandler(winDefault);
        win.free();
        Win.freeKeyval(wkey);

        // opening touches nothing on disk; MODE_CREATE does not need the file
        String name = "fthp-compat-nonexistent-" + w.getRank();
        File f = new File(MPI.COMM_SELF, name, MPI.MODE_WRONLY | MPI.MODE_CREATE);
        Check.that(f.getErrhandler() == MPI.ERRORS_RETURN, "a file's default handler is ERRORS_RETURN");
        f.setErrhandler(MPI.ERRORS_ARE_FATAL);
        Check.that(f.getErrhandler() == MPI.ERRORS_ARE_FATAL, "file getErrhandler after set");
        f.setErrhandler(MPI.ERRORS_RETURN);
        f.callErrhandler(MPI.ERR_FILE);
        Check.equal(MPI.MODE_WRONLY | MPI.MODE_CREATE, f.getAMode(), "file access mode");
        try {
            f.write(new int[] {1}, 1, MPI.INT);
            Check.that(false, "file writes are refused");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_UNSUPPORTED_OPERATION, e.getErrorClass(), "write: error class");
        }
        f.close();
        Check.that(!new java.io.File(name).exists(), "MODE_CREATE created no file");
        try {
            new File(MPI.COMM_SELF, name, MPI.MODE_RDONLY);
            Check.that(false, "opening a missing file without MODE_CREATE must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_NO_SUCH_FILE, e.getErrorClass(), "open a missing file: error class");
        }
        try {
            new File(MPI.COMM_SELF, name, MPI.MODE_RDONLY | MPI.MODE_WRONLY);
            Check.that(false, "two access modes must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_AMODE, e.getErrorClass(), "bad access mode: error class");
        }
    }

    /** The neighbours every process should see in a layout (edge i->j of weight layout[i][j] when not 0). */
    static void verify(GraphComm g, int[][] layout, String what) throws MPIException {
        int rank = g.getRank(), size = g.getSize();
        for (GraphComm c : new GraphComm[] {g, g.dup()}) {
            Check.equal(MPI.DIST_GRAPH, c.getTopology(), what + ": topology");
            DistGraphNeighbors n = c.getDistGraphNeighbors();
            Check.that(n.isWeighted(), what + ": weighted");
            int[] inW = new int[size];
            int[] outW = new int[size];
            for (int i = 0; i < n.getInDegree(); i++) inW[n.getSource(i)] += n.getSourceWeight(i);
            for (int i = 0; i < n.getOutDegree(); i++) outW[n.getDestination(i)] += n.getDestinationWeight(i);
            int[] wantIn = new int[size];
            int[] wantOut = new int[size];
            for (int j = 0; j < size; j++) {
                wantIn[j] = layout[j][rank];
                wantOut[j] = layout[rank][j];
            }
            Check.array(wantIn, inW, what + ": in-edges and weights");
            Check.array(wantOut, outW, what + ": out-edges and weights");
            // a neighbourhood allGather: each in-neighbour's rank, in in-neighbour order
            int[] got = new int[n.getInDegree()];
            c.neighborAllGather(new int[] {rank * 10}, 1, MPI.INT, got, 1, MPI.INT);
            for (int i = 0; i < got.length; i++) {
                Check.equal(n.getSource(i) * 10, got[i], what + ": neighbour allGather from in-neighbour " + i);
            }
            if (c != g) {
                c.free();
            }
        }
    }

    static void distGraphs(Intracomm w) throws MPIException {
        int rank = w.getRank(), size = w.getSize();
        int[][] layout = new int[size][size];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                // a deterministic incomplete graph: no edge where (i + 2j) % 3 == 0
                layout[i][j] = (i + 2 * j) % 3 == 0 ? 0 : (i + 2) * (j + 1);
            }
        }
        int[] sources = new int[size * size];
        int[] degrees = new int[size * size];
        int[] destinations = new int[size * size];
        int[] weights = new int[size * size];

        // each process gives its out-edges (arrays longer than used, as the ompi-java tests pass them)
        sources[0] = rank;
        int k = 0;
        for (int j = 0; j < size; j++) {
            if (layout[rank][j] != 0) {
                destinations[k] = j;
                weights[k++] = layout[rank][j];
            }
        }
        degrees[0] = k;
        GraphComm g = w.createDistGraph(Arrays.copyOf(sources, 1), degrees, destinations, weights, MPI.INFO_NULL,
                false);
        verify(g, layout, "out-edges only");
        g.free();

        // each process gives its in-edges
        k = 0;
        for (int j = 0; j < size; j++) {
            if (layout[j][rank] != 0) {
                sources[k] = j;
                weights[k] = layout[j][rank];
                degrees[k] = 1;
                destinations[k++] = rank;
            }
        }
        g = w.createDistGraph(Arrays.copyOf(sources, k), degrees, destinations, weights, MPI.INFO_NULL, true);
        verify(g, layout, "in-edges only");
        g.free();

        // rank 0 gives the whole graph
        int p = 0;
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                if (layout[i][j] != 0) {
                    sources[p] = i;
                    weights[p] = layout[i][j];
                    degrees[p] = 1;
                    destinations[p++] = j;
                }
            }
        }
        g = w.createDistGraph(Arrays.copyOf(sources, rank == 0 ? p : 0), degrees, destinations, weights,
                MPI.INFO_NULL, false);
        verify(g, layout, "rank 0 gives all");
        g.free();

        // no graph at all, unweighted
        g = w.createDistGraph(new int[0], degrees, destinations, MPI.INFO_NULL, false);
        DistGraphNeighbors none = g.getDistGraphNeighbors();
        Check.equal(0, none.getInDegree(), "no graph: in-degree");
        Check.equal(0, none.getOutDegree(), "no graph: out-degree");
        g.free();

        // one rank's arrays too short: every rank gets the error, nobody waits
        w.setErrhandler(MPI.ERRORS_RETURN);
        try {
            int[] few = rank == 1 ? new int[0] : new int[] {1};
            w.createDistGraph(new int[] {rank}, few, new int[] {(rank + 1) % size}, MPI.INFO_NULL, false);
            Check.that(false, "createDistGraph with a short degree array on rank 1 must fail everywhere");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_ARG, e.getErrorClass(), "short degree array: error class");
        }
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }
}
