package mpi;

import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.CommStructure;

/** An intercommunicator: point-to-point and collectives address the remote group. */
public final class Intercomm extends Comm {

    protected Intercomm(long handle) {
        super(handle);
    }

    protected Intercomm(long[] commRequest) {
        super(commRequest);
    }

    Intercomm(CommStructure structure) {
        super(structure);
    }

    @Override
    public Intercomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public Intercomm dup() throws MPIException {
        return guard(() -> duplicate(new Intercomm(Engine.get().structures().dup(live()))));
    }

    @Override
    public Intercomm iDup() throws MPIException {
        Intercomm c = dup();
        c.setRequest(new Request(Requests.completed()));
        return c;
    }

    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    public int getRemoteSize() throws MPIException {
        return live().remoteSize();
    }

    public Group getRemoteGroup() throws MPIException {
        return new Group(live().remoteWorldRanks());
    }

    public Intracomm merge(boolean high) throws MPIException {
        return guard(() -> child(new Intracomm(Engine.get().structures().merge(live(), high))));
    }

    public static Intercomm getParent() throws MPIException {
        MPI.check();
        return new Intercomm((CommStructure) null);
    }
}
