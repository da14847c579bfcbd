package mpi;

import java.nio.Buffer;

/**
 * One-sided communication window (MPI_Win). A window can be created, named,
 * given attributes and an error handler, and freed, so programs that set up a
 * window (or only test its error handling) run; every one-sided operation
 * (put, get, accumulate, synchronisation) fails through the window's error
 * handler: a replica's memory could be written by remote puts that the other
 * replicas never see, so replicas could not be kept consistent. Creation is
 * local here (no memory is exposed to anyone), though MPI_Win_create is
 * collective.
 */
public final class Win implements Freeable {

    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    private static final String UNSUPPORTED =
            "one-sided communication (MPI.Win) is not supported by FTHP-J: replicas could not be kept consistent";

    private final Comm comm;
    private final ObjectErrhandler errors = new ObjectErrhandler(MPI.ERRORS_ARE_FATAL);
    private final Attributes attributes = new Attributes(Attributes.WIN_KEYVALS);
    private String name = "";
    private boolean freed;
    /** The job's generation this window was made in: after a rollback in place it is stale. */
    private final int generation = org.fthp.replication.runtime.Engine.currentGeneration();

    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        this(comm, base, size, dispUnit);
    }

    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        this(comm, base, size, dispUnit);
    }

    public Win(Info info, Comm comm) throws MPIException {
        this(comm, null, 0, 1);
    }

    private Win(Comm comm, Buffer base, int size, int dispUnit) throws MPIException {
        if (comm == null) {
            throw MPI.COMM_WORLD.fail(Errors.error(MPI.ERR_COMM, "null communicator"));
        }
        comm.live();
        if (size < 0 || dispUnit <= 0) {
            throw comm.fail(Errors.error(MPI.ERR_ARG, "window size " + size + " and displacement unit " + dispUnit
                    + ": the size must be >= 0 and the unit > 0"));
        }
        this.comm = comm;
        attributes.setWindowAttributes(base, size, dispUnit);
    }

    /** A one-sided operation: refused through the window's error handler. */
    private MPIException unsupported() {
        MPIException e = freed ? Errors.error(MPI.ERR_WIN, "the window is freed")
                : Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, UNSUPPORTED);
        return errors.apply(e);
    }

    /** MPI.check, then an error if the window is freed. */
    private void live() throws MPIException {
        MPI.check();
        if (freed) {
            throw errors.apply(Errors.error(MPI.ERR_WIN, "the window is freed"));
        }
        if (generation != org.fthp.replication.runtime.Engine.currentGeneration()) {
            throw errors.apply(Errors.error(MPI.ERR_WIN, "stale window: made before the job rolled back in place"));
        }
    }

    public void attach(Buffer base, int size) throws MPIException {
        throw unsupported();
    }

    public void detach(Buffer base) throws MPIException {
        throw unsupported();
    }

    public Group getGroup() throws MPIException {
        live();
        return comm.getGroup();
    }

    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) throws MPIException {
        throw unsupported();
    }

    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) throws MPIException {
        throw unsupported();
    }

    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        throw unsupported();
    }

    public void fence(int assertion) throws MPIException {
        throw unsupported();
    }

    public void start(Group group, int assertion) throws MPIException {
        throw unsupported();
    }

    public void complete() throws MPIException {
        throw unsupported();
    }

    public void post(Group group, int assertion) throws MPIException {
        throw unsupported();
    }

    public void waitFor() throws MPIException {
        throw unsupported();
    }

    public boolean test() throws MPIException {
        throw unsupported();
    }

    public void lock(int lockType, int rank, int assertion) throws MPIException {
        throw unsupported();
    }

    public void unlock(int rank) throws MPIException {
        throw unsupported();
    }

    public void setErrhandler(Errhandler errhandler) throws MPIException {
        live();
        errors.set(errhandler);
    }

    public Errhandler getErrhandler() throws MPIException {
        live();
        return errors.get();
    }

    /** Invokes the window's handler: ERRORS_ARE_FATAL aborts, ERRORS_RETURN returns normally (MPI 3.1 §8.3.6). */
    public void callErrhandler(int errorCode) throws MPIException {
        live();
        errors.call(errorCode);
    }

    public static int createKeyval() throws MPIException {
        return Attributes.WIN_KEYVALS.create();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        try {
            Attributes.WIN_KEYVALS.free(keyval);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.fail(e);
        }
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        live();
        try {
            attributes.set(keyval, value);
        } catch (MPIException e) {
            throw errors.apply(e);
        }
    }

    /** The cached value (a copy), the predefined WIN_BASE, WIN_SIZE or WIN_DISP_UNIT, or null. */
    public Object getAttr(int keyval) throws MPIException {
        live();
        try {
            return attributes.get(keyval);
        } catch (MPIException e) {
            throw errors.apply(e);
        }
    }

    public void deleteAttr(int keyval) throws MPIException {
        live();
        try {
            attributes.delete(keyval);
        } catch (MPIException e) {
            throw errors.apply(e);
        }
    }

    @Override
    public void free() throws MPIException {
        live();
        freed = true;
        attributes.clear();
    }

    public Info getInfo() throws MPIException {
        live();
        return new Info();
    }

    public void setInfo(Info info) throws MPIException {
        live();
    }

    public final Request rPut(Buffer origin_addr, int origin_count, Datatype origin_datatype, int target_rank,
            int target_disp, int target_count, Datatype target_datatype) throws MPIException {
        throw unsupported();
    }

    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) throws MPIException {
        throw unsupported();
    }

    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        throw unsupported();
    }

    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
            int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType, Op op) throws MPIException {
        throw unsupported();
    }

    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
            int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType, Op op) throws MPIException {
        throw unsupported();
    }

    public void lockAll(int assertion) throws MPIException {
        throw unsupported();
    }

    public void unlockAll() throws MPIException {
        throw unsupported();
    }

    public void sync() throws MPIException {
        throw unsupported();
    }

    public void flush(int targetRank) throws MPIException {
        throw unsupported();
    }

    public void flushAll() throws MPIException {
        throw unsupported();
    }

    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
            int targetRank, int targetDisp) throws MPIException {
        throw unsupported();
    }

    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank,
            int targetDisp, Op op) throws MPIException {
        throw unsupported();
    }

    public void flushLocal(int targetRank) throws MPIException {
        throw unsupported();
    }

    public void flushLocalAll() throws MPIException {
        throw unsupported();
    }

    public String getName() throws MPIException {
        live();
        return name;
    }

    public void setName(String name) throws MPIException {
        live();
        this.name = name == null ? "" : name;
    }
}
