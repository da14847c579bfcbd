package mpi;

import java.nio.Buffer;

/**
 * MPI-IO file (MPI_File). Present so that programs compiled against Open
 * MPI link, but every operation fails until FTHP-J supports replicated I/O.
 */
public final class File {

    private static final String UNSUPPORTED = "MPI-IO (MPI.File) is not supported by FTHP-J yet";

    // Open MPI's default view; unreachable in practice because the constructors fail.
    private final FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");

    public File(Comm comm, String filename, int amode) throws MPIException {
        throw unsupported();
    }

    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        throw unsupported();
    }

    private static MPIException unsupported() {
        return Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, UNSUPPORTED);
    }

    /** The current view (no MPI call, as in Open MPI). */
    public FileView getView() {
        return view;
    }

    public void close() throws MPIException {
        throw unsupported();
    }

    public static void delete(String filename) throws MPIException {
        throw unsupported();
    }

    public static void delete(String filename, Info info) throws MPIException {
        throw unsupported();
    }

    public void setSize(long size) throws MPIException {
        throw unsupported();
    }

    public void preallocate(long size) throws MPIException {
        throw unsupported();
    }

    public long getSize() throws MPIException {
        throw unsupported();
    }

    public Group getGroup() throws MPIException {
        throw unsupported();
    }

    public int getAMode() throws MPIException {
        throw unsupported();
    }

    public void setInfo(Info info) throws MPIException {
        throw unsupported();
    }

    public Info getInfo() throws MPIException {
        throw unsupported();
    }

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        throw unsupported();
    }

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep,
            Info info) throws MPIException {
        throw unsupported();
    }

    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status read(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status write(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public void seek(long offset, int whence) throws MPIException {
        throw unsupported();
    }

    public long getPosition() throws MPIException {
        throw unsupported();
    }

    public long getByteOffset(long offset) throws MPIException {
        throw unsupported();
    }

    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public void seekShared(long offset, int whence) throws MPIException {
        throw unsupported();
    }

    public long getPositionShared() throws MPIException {
        throw unsupported();
    }

    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status readAtAllEnd(Object buf) throws MPIException {
        throw unsupported();
    }

    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeAtAllEnd(Object buf) throws MPIException {
        throw unsupported();
    }

    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status readAllEnd(Object buf) throws MPIException {
        throw unsupported();
    }

    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeAllEnd(Object buf) throws MPIException {
        throw unsupported();
    }

    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status readOrderedEnd(Object buf) throws MPIException {
        throw unsupported();
    }

    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        throw unsupported();
    }

    public Status writeOrderedEnd(Object buf) throws MPIException {
        throw unsupported();
    }

    public int getTypeExtent(Datatype type) throws MPIException {
        throw unsupported();
    }

    public void setAtomicity(boolean atomicity) throws MPIException {
        throw unsupported();
    }

    public boolean getAtomicity() throws MPIException {
        throw unsupported();
    }

    public void sync() throws MPIException {
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
}
