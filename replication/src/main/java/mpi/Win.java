package mpi;

import java.nio.Buffer;

/**
 * One-sided communication window (MPI_Win). Present so that programs
 * compiled against Open MPI link, but every operation fails: a replica's
 * memory could be written by remote puts that the other replicas never
 * see, so replicas could not be kept consistent.
 */
public final class Win implements Freeable {

    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    private static final String UNSUPPORTED =
            "one-sided communication (MPI.Win) is not supported by FTHP-J: replicas could not be kept consistent";

    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        throw unsupported();
    }

    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        throw unsupported();
    }

    public Win(Info info, Comm comm) throws MPIException {
        throw unsupported();
    }

    private static MPIException unsupported() {
        return Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, UNSUPPORTED);
    }

    public void attach(Buffer base, int size) throws MPIException {
        throw unsupported();
    }

    public void detach(Buffer base) throws MPIException {
        throw unsupported();
    }

    public Group getGroup() throws MPIException {
        throw unsupported();
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
        throw unsupported();
    }

    public Errhandler getErrhandler() throws MPIException {
        throw unsupported();
    }

    public void callErrhandler(int errorCode) throws MPIException {
        throw unsupported();
    }

    public static int createKeyval() throws MPIException {
        throw unsupported();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        throw unsupported();
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        throw unsupported();
    }

    public Object getAttr(int keyval) throws MPIException {
        throw unsupported();
    }

    public void deleteAttr(int keyval) throws MPIException {
        throw unsupported();
    }

    @Override
    public void free() throws MPIException {
        throw unsupported();
    }

    public Info getInfo() throws MPIException {
        throw unsupported();
    }

    public void setInfo(Info info) throws MPIException {
        throw unsupported();
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
        throw unsupported();
    }

    public void setName(String name) throws MPIException {
        throw unsupported();
    }
}
