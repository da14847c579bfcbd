package mpi;

import org.fthp.replication.p2p.NeighborLists;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.topology.DistGraphTopology;
import org.fthp.replication.topology.GraphTopology;

/** A communicator with a graph or distributed-graph topology, kept in Java. */
public final class GraphComm extends Intracomm {

    private GraphTopology graph;
    private DistGraphTopology dist;

    protected GraphComm(long handle) throws MPIException {
        super(handle);
    }

    protected GraphComm(long[] commRequest) {
        super(commRequest);
    }

    GraphComm(CommStructure structure, GraphTopology graph) {
        super(structure);
        this.graph = graph;
    }

    GraphComm(CommStructure structure, DistGraphTopology dist) {
        super(structure);
        this.dist = dist;
    }

    static GraphComm nullGraph() {
        return new GraphComm((CommStructure) null, (GraphTopology) null);
    }

    @Override
    int topologyKind() {
        return graph != null ? MPI.GRAPH : MPI.DIST_GRAPH;
    }

    @Override
    NeighborLists neighborLists() throws MPIException {
        int[] in;
        int[] out;
        if (graph != null) {
            in = graph.neighbors(live().rank());
            out = in;
        } else {
            in = dist.sources();
            out = dist.destinations();
        }
        return NeighborLists.graph(in, out);
    }

    private GraphComm sameTopology(CommStructure s) {
        return graph != null ? new GraphComm(s, graph) : new GraphComm(s, dist);
    }

    @Override
    public GraphComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public GraphComm dup() throws MPIException {
        return guard(() -> duplicate(sameTopology(Engine.get().structures().dup(live()))));
    }

    @Override
    public GraphComm iDup() throws MPIException {
        GraphComm c = dup();
        c.setRequest(new Request(Requests.completed()));
        return c;
    }

    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    private GraphTopology graphOnly() throws MPIException {
        live();
        if (graph == null) {
            throw fail(Errors.error(MPI.ERR_TOPOLOGY, "not a graph communicator (it has a distributed graph)"));
        }
        return graph;
    }

    public GraphParms getDims() throws MPIException {
        GraphTopology g = graphOnly();
        return new GraphParms(g.index(), g.edges());
    }

    public int[] getNeighbors(int rank) throws MPIException {
        GraphTopology g = graphOnly();
        try {
            return g.neighbors(rank);
        } catch (IllegalArgumentException e) {
            throw fail(Errors.error(MPI.ERR_RANK, e.getMessage()));
        }
    }

    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        live();
        if (dist == null) {
            int[] n = graph.neighbors(live().rank());
            return new DistGraphNeighbors(n, null, n, null, false);
        }
        return new DistGraphNeighbors(dist.sources(), dist.sourceWeights(), dist.destinations(), dist.destWeights(),
                dist.isWeighted());
    }

    public int map(int[] index, int[] edges) throws MPIException {
        CommStructure s = live();
        try {
            GraphTopology g = new GraphTopology(index, edges);
            return s.rank() < g.nodes() ? s.rank() : MPI.UNDEFINED;
        } catch (IllegalArgumentException e) {
            throw fail(Errors.error(MPI.ERR_TOPOLOGY, e.getMessage()));
        }
    }
}
