package mpi;

import java.nio.Buffer;

import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.structure.PortName;
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
        return guard(() -> duplicate(new Intracomm(Engine.get().structures().dup(live()))));
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
        guard(() -> Collectives.await(ReductionCalls.scan(this, sendbuf, recvbuf, count, type, op, false, false)));
    }

    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.scan(this, recvbuf, recvbuf, count, type, op, true, false)));
    }

    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, ReductionCalls.scan(this, sendbuf, recvbuf, count, type, op, false, false));
        });
    }

    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, ReductionCalls.scan(this, buf, buf, count, type, op, true, false));
        });
    }

    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.scan(this, sendbuf, recvbuf, count, type, op, false, true)));
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        guard(() -> Collectives.await(ReductionCalls.scan(this, buf, buf, count, type, op, true, true)));
    }

    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        return guard(() -> {
            Args.direct(sendbuf);
            Args.direct(recvbuf);
            return new Request(this, ReductionCalls.scan(this, sendbuf, recvbuf, count, type, op, false, true));
        });
    }

    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guard(() -> {
            Args.direct(buf);
            return new Request(this, ReductionCalls.scan(this, buf, buf, count, type, op, true, true));
        });
    }

    // ---- ports among the job's own processes; spawning and name publishing are not supported ----

    private static MPIException spawning() {
        return Errors.error(MPI.ERR_SPAWN, "spawning processes is not supported by FTHP-J: the job's processes "
                + "and their replicas are fixed at launch (fthp-run -np)");
    }

    private static MPIException naming() {
        return Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, "name publishing is not supported by FTHP-J: pass the "
                + "port name from Intracomm.openPort to the other side in a message instead");
    }

    /**
     * A port for {@link #accept}: a name the connecting side of this job uses
     * in {@link #connect} (it reaches no process outside the job).
     */
    public static String openPort() throws MPIException {
        try {
            return Ports.open();
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.fail(e);
        }
    }

    public static String openPort(Info info) throws MPIException {
        return openPort();
    }

    public static void closePort(String name) throws MPIException {
        try {
            Ports.close(name);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.fail(e);
        }
    }

    /**
     * MPI_Comm_accept between processes of this job: the group of this
     * communicator and the group that connects to {@code port} (significant
     * at {@code root} only, which must have opened it) form an
     * intercommunicator, built and repaired as one from
     * {@link Comm#createIntercomm}.
     */
    public final Intercomm accept(String port, int root) throws MPIException {
        return guard(() -> {
            CommStructure local = live();
            Args.root(root, local.size());
            PortName p = local.rank() == root ? Ports.ownOpen(port) : null;
            CommStructure s = Engine.get().structures().accept(local, root, MPI.COMM_WORLD.live(), p);
            if (s == null) {
                throw Errors.error(MPI.ERR_PORT, "accept: the root's port " + (local.rank() == root ? port : "")
                        + " is not an open port of its process (Intracomm.openPort)");
            }
            return child(new Intercomm(s));
        });
    }

    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        return accept(port, root);
    }

    /**
     * MPI_Comm_connect to a port another group of this job accepts on
     * ({@code port} significant at {@code root} only).
     */
    public final Intercomm connect(String port, int root) throws MPIException {
        return guard(() -> {
            CommStructure local = live();
            Args.root(root, local.size());
            PortName p = null;
            if (local.rank() == root) {
                p = Ports.parse(port);
                if (p != null && p.worldRank() >= MPI.COMM_WORLD.live().size()) {
                    p = null;
                }
            }
            CommStructure s = Engine.get().structures().connect(local, root, MPI.COMM_WORLD.live(), p);
            if (s == null) {
                throw Errors.error(MPI.ERR_PORT, "connect: the root's port " + (local.rank() == root ? port : "")
                        + " is not a port name of this job (Intracomm.openPort)");
            }
            return child(new Intercomm(s));
        });
    }

    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        return connect(port, root);
    }

    public static void publishName(String service, String port) throws MPIException {
        throw naming();
    }

    public static void publishName(String service, Info info, String port) throws MPIException {
        throw naming();
    }

    public static void unpublishName(String service, String port) throws MPIException {
        throw naming();
    }

    public static void unpublishName(String service, Info info, String port) throws MPIException {
        throw naming();
    }

    public static String lookupName(String service) throws MPIException {
        throw naming();
    }

    public static String lookupName(String service, Info info) throws MPIException {
        throw naming();
    }

    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
            throws MPIException {
        throw spawning();
    }

    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
                                         int[] errcodes) throws MPIException {
        throw spawning();
    }
}
