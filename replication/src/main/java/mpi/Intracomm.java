package mpi;

import java.nio.Buffer;

import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.topology.CartTopology;
import org.fthp.replication.topology.DistGraphContribution;
import org.fthp.replication.topology.DistGraphTopology;
import org.fthp.replication.topology.GraphTopology;

/** An intracommunicator: one group of processes. */
public class Intracomm extends Comm {

    protected Intracomm() {
    }

    protected Intracomm(long handle) {
        super(handle);
    }

    protected Intracomm(long[] commRequest) {
        super(commRequest);
    }

    Intracomm(CommStructure structure) {
        super(structure);
    }

    /** The null communicator a split or create returns to non-members. */
    static Intracomm nullComm() {
        return new Intracomm((CommStructure) null);
    }

    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public Intracomm dup() throws MPIException {
        return guard(() -> child(new Intracomm(Engine.get().structures().dup(live()))));
    }

    @Override
    public Intracomm iDup() throws MPIException {
        Intracomm c = dup();
        c.setRequest(new Request(Requests.completed()));
        return c;
    }

    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    public final Intracomm split(int colour, int key) throws MPIException {
        return guard(() -> {
            if (colour < 0 && colour != MPI.UNDEFINED) {
                throw Errors.error(MPI.ERR_ARG, "invalid colour " + colour);
            }
            CommStructure s = Engine.get().structures().split(live(), colour, key);
            return s == null ? nullComm() : child(new Intracomm(s));
        });
    }

    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        return guard(() -> {
            if (splitType != TYPE_SHARED && splitType != MPI.UNDEFINED) {
                throw Errors.error(MPI.ERR_ARG, "unknown split type " + splitType);
            }
            // one shared-memory node per job for now: the node coordinator work will refine this
            CommStructure s = Engine.get().structures().split(live(), splitType == MPI.UNDEFINED ? MPI.UNDEFINED : 0,
                    key);
            return s == null ? nullComm() : child(new Intracomm(s));
        });
    }

    public final Intracomm create(Group group) throws MPIException {
        return guard(() -> {
            CommStructure parent = live();
            int id = parent.nextChildId();
            int[] ranks = Engine.get().structures().parentRanksOf(parent, group.members());
            CommStructure s = Engine.get().structures().fromMembers(parent, ranks,
                    Engine.get().structures().hashId(id, ranks, null));
            return s == null ? nullComm() : child(new Intracomm(s));
        });
    }

    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        return guard(() -> {
            CommStructure parent = live();
            Args.sendTag(tag);
            int[] ranks = Engine.get().structures().parentRanksOf(parent, group.members());
            CommStructure s = Engine.get().structures().fromMembers(parent, ranks,
                    Engine.get().structures().hashId(parent.commId() ^ tag, group.members(), null));
            return s == null ? nullComm() : child(new Intracomm(s));
        });
    }

    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        return guard(() -> {
            CommStructure parent = live();
            CartTopology topo;
            try {
                topo = new CartTopology(dims, periods);
            } catch (IllegalArgumentException e) {
                throw Errors.error(MPI.ERR_DIMS, e.getMessage());
            }
            if (topo.size() > parent.size()) {
                throw Errors.error(MPI.ERR_DIMS, "grid of " + topo.size() + " processes on a communicator of "
                        + parent.size());
            }
            CommStructure s = Engine.get().structures().split(parent,
                    parent.rank() < topo.size() ? 0 : MPI.UNDEFINED, parent.rank());
            return s == null ? CartComm.nullCart() : child(new CartComm(s, topo));
        });
    }

    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        return guard(() -> {
            CommStructure parent = live();
            GraphTopology topo;
            try {
                topo = new GraphTopology(index, edges);
            } catch (IllegalArgumentException e) {
                throw Errors.error(MPI.ERR_TOPOLOGY, e.getMessage());
            }
            if (topo.nodes() > parent.size()) {
                throw Errors.error(MPI.ERR_TOPOLOGY, "graph of " + topo.nodes() + " nodes on a communicator of "
                        + parent.size());
            }
            CommStructure s = Engine.get().structures().split(parent, parent.rank() < topo.nodes() ? 0 : MPI.UNDEFINED,
                    parent.rank());
            return s == null ? GraphComm.nullGraph() : child(new GraphComm(s, topo));
        });
    }

    /**
     * MPI_Dist_graph_create: every process may describe any edge, so each
     * gathers every process's arguments (cut to what the C call reads, as
     * Open MPI's binding passes whole arrays) and keeps its own neighbours.
     * A process whose arguments are invalid still takes part in the exchange,
     * so all of them fail with the same error instead of the others waiting.
     */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights,
                                           Info info, boolean reorder) throws MPIException {
        return guard(() -> {
            CommStructure parent = live();
            int n = parent.size();
            DistGraphContribution mine = null;
            String invalid = null;
            try {
                mine = DistGraphContribution.of(sources, degrees, destinations, weights);
            } catch (IllegalArgumentException e) {
                invalid = e.getMessage();
            }
            int[] header = mine == null ? DistGraphContribution.invalidHeader() : mine.header();
            int hi = DistGraphContribution.HEADER_INTS;
            int[] headers = new int[hi * n];
            allGather(header, hi, MPI.INT, headers, hi, MPI.INT);
            int[] counts = new int[n];
            int[] displs = new int[n];
            int total = 0;
            int firstInvalid = -1;
            for (int r = 0; r < n; r++) {
                counts[r] = DistGraphContribution.bodyInts(headers, r);
                displs[r] = total;
                total += counts[r];
                if (firstInvalid < 0 && DistGraphContribution.isInvalid(headers, r)) {
                    firstInvalid = r;
                }
            }
            if (firstInvalid >= 0) {
                throw Errors.error(MPI.ERR_ARG, invalid != null ? "createDistGraph: " + invalid
                        : "createDistGraph: rank " + firstInvalid + " gave invalid arguments");
            }
            int[] body = mine.body();
            int[] bodies = new int[Math.max(1, total)];
            allGatherv(body, body.length, MPI.INT, bodies, counts, displs, MPI.INT);
            DistGraphContribution[] all = new DistGraphContribution[n];
            for (int r = 0; r < n; r++) {
                all[r] = DistGraphContribution.decode(headers, r, bodies, displs[r]);
            }
            DistGraphTopology topo;
            try {
                topo = DistGraphContribution.topology(parent.rank(), all);
            } catch (IllegalArgumentException e) {
                throw Errors.error(MPI.ERR_TOPOLOGY, e.getMessage());
            }
            return child(new GraphComm(Engine.get().structures().dup(parent), topo));
        });
    }

    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info,
                                           boolean reorder) throws MPIException {
        return createDistGraph(sources, degrees, destinations, null, info, reorder);
    }

    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                                   int[] destWeights, Info info, boolean reorder) throws MPIException {
        return guard(() -> {
            CommStructure parent = live();
            DistGraphTopology topo;
            try {
                topo = new DistGraphTopology(sources, sourceWeights, destinations, destWeights, parent.size());
            } catch (IllegalArgumentException e) {
                throw Errors.error(MPI.ERR_TOPOLOGY, e.getMessage());
            }
            return child(new GraphComm(Engine.get().structures().dup(parent), topo));
        });
    }

    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return createDistGraphAdjacent(sources, null, destinations, null, info, reorder);
    }

    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(Reductions.scan(this, sendbuf, recvbuf, count, type, op, false, false)));
    }

    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(Reductions.scan(this, recvbuf, recvbuf, count, type, op, true, false)));
    }

    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Reductions.scan(this, sendbuf, recvbuf, count, type, op, false, false));
        });
    }

    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, Reductions.scan(this, buf, buf, count, type, op, true, false));
        });
    }

    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(Reductions.scan(this, sendbuf, recvbuf, count, type, op, false, true)));
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(Reductions.scan(this, buf, buf, count, type, op, true, true)));
    }

    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, Reductions.scan(this, sendbuf, recvbuf, count, type, op, false, true));
        });
    }

    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, Reductions.scan(this, buf, buf, count, type, op, true, true));
        });
    }

    // ---- dynamic processes: not supported under replication ----

    private static MPIException dynamic() {
        return Errors.error(MPI.ERR_UNSUPPORTED_OPERATION,
                "dynamic process management is not supported by FTHP-J: replicas of spawned or connected "
                        + "processes could not be kept consistent");
    }

    public static String openPort() throws MPIException {
        throw dynamic();
    }

    public static String openPort(Info info) throws MPIException {
        throw dynamic();
    }

    public static void closePort(String name) throws MPIException {
        throw dynamic();
    }

    public final Intercomm accept(String port, int root) throws MPIException {
        throw dynamic();
    }

    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        throw dynamic();
    }

    public final Intercomm connect(String port, int root) throws MPIException {
        throw dynamic();
    }

    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        throw dynamic();
    }

    public static void publishName(String service, String port) throws MPIException {
        throw dynamic();
    }

    public static void publishName(String service, Info info, String port) throws MPIException {
        throw dynamic();
    }

    public static void unpublishName(String service, String port) throws MPIException {
        throw dynamic();
    }

    public static void unpublishName(String service, Info info, String port) throws MPIException {
        throw dynamic();
    }

    public static String lookupName(String service) throws MPIException {
        throw dynamic();
    }

    public static String lookupName(String service, Info info) throws MPIException {
        throw dynamic();
    }

    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
            throws MPIException {
        throw dynamic();
    }

    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
                                         int[] errcodes) throws MPIException {
        throw dynamic();
    }
}
