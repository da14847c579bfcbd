package mpi;

import org.fthp.replication.p2p.NeighborLists;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.topology.CartTopology;

/** A communicator with a Cartesian topology, kept in Java (reorder is never applied). */
public final class CartComm extends Intracomm {

    private CartTopology topology;

    protected CartComm(long handle) throws MPIException {
        super(handle);
    }

    protected CartComm(long[] commRequest) {
        super(commRequest);
    }

    CartComm(CommStructure structure, CartTopology topology) {
        super(structure);
        this.topology = topology;
    }

    static CartComm nullCart() {
        return new CartComm((CommStructure) null, null);
    }

    @Override
    int topologyKind() {
        return MPI.CART;
    }

    @Override
    NeighborLists neighborLists() throws MPIException {
        return NeighborLists.cartesian(topology, live().rank(), MPI.PROC_NULL);
    }

    @Override
    public CartComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public CartComm dup() throws MPIException {
        return guard(() -> duplicate(new CartComm(Engine.get().structures().dup(live()), topology)));
    }

    @Override
    public CartComm iDup() throws MPIException {
        CartComm c = dup();
        c.setRequest(new Request(Requests.completed()));
        return c;
    }

    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    public CartParms getTopo() throws MPIException {
        return new CartParms(topology.dims(), topology.periods(), topology.coords(live().rank()));
    }

    public int getRank(int[] coords) throws MPIException {
        live();
        try {
            return topology.rank(coords);
        } catch (IllegalArgumentException e) {
            throw fail(Errors.error(MPI.ERR_ARG, e.getMessage()));
        }
    }

    public int[] getCoords(int rank) throws MPIException {
        live();
        try {
            return topology.coords(rank);
        } catch (IllegalArgumentException e) {
            throw fail(Errors.error(MPI.ERR_RANK, e.getMessage()));
        }
    }

    public ShiftParms shift(int direction, int disp) throws MPIException {
        int rank = live().rank();
        try {
            int[] sd = topology.shift(rank, direction, disp, MPI.PROC_NULL);
            return new ShiftParms(sd[0], sd[1]);
        } catch (IllegalArgumentException e) {
            throw fail(Errors.error(MPI.ERR_DIMS, e.getMessage()));
        }
    }

    public CartComm sub(boolean[] remainDims) throws MPIException {
        return guard(() -> {
            CommStructure s = live();
            CartTopology.Sub sub;
            try {
                sub = topology.sub(remainDims);
            } catch (IllegalArgumentException e) {
                throw Errors.error(MPI.ERR_DIMS, e.getMessage());
            }
            CommStructure child = Engine.get().structures().split(s, sub.color(s.rank()), sub.key(s.rank()));
            return child(new CartComm(child, sub.topology()));
        });
    }

    public int map(int[] dims, boolean[] periods) throws MPIException {
        CommStructure s = live();
        try {
            CartTopology t = new CartTopology(dims, periods);
            return s.rank() < t.size() ? s.rank() : MPI.UNDEFINED;
        } catch (IllegalArgumentException e) {
            throw fail(Errors.error(MPI.ERR_DIMS, e.getMessage()));
        }
    }

    public static void createDims(int nnodes, int[] dims) throws MPIException {
        MPI.check();
        try {
            int[] out = CartTopology.dimsCreate(nnodes, dims);
            System.arraycopy(out, 0, dims, 0, dims.length);
        } catch (IllegalArgumentException e) {
            throw Errors.error(MPI.ERR_DIMS, e.getMessage());
        }
    }
}
