package mpi;

import java.nio.Buffer;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * MPI-IO file (MPI_File). A file can be opened (its access mode checked, and
 * without MPI.MODE_CREATE, that it exists), given an error handler, asked
 * its group and access mode, and closed, so programs that open files (or only
 * test their error handling) run; every read, write, seek, view or size
 * operation fails through the file's error handler until FTHP-J supports
 * replicated I/O (each replica would write the file too). Opening touches
 * nothing on disk: MODE_CREATE creates no file, MODE_DELETE_ON_CLOSE deletes
 * none, so replicas opening the same file cannot race.
 *
 * <p>As in MPI, a file's default error handler is ERRORS_RETURN (that of
 * MPI_FILE_NULL), not the communicators' ERRORS_ARE_FATAL.
 */
public final class File {

    private static final String UNSUPPORTED = "MPI-IO (MPI.File) is not supported by FTHP-J yet";

    // Open MPI's default view
    private final FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");
    private final ObjectErrhandler errors = new ObjectErrhandler(MPI.ERRORS_RETURN);
    private final Comm comm;
    private final int amode;
    private boolean closed;

    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, MPI.INFO_NULL);
    }

    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        MPI.check();
        if (comm == null) {
            throw errors.apply(Errors.error(MPI.ERR_COMM, "null communicator"));
        }
        comm.live();
        checkAccessMode(amode);
        Path path;
        try {
            path = Path.of(filename == null ? "" : filename);
        } catch (InvalidPathException e) {
            throw errors.apply(Errors.error(MPI.ERR_BAD_FILE, "invalid file name " + filename + ": " + e.getMessage()));
        }
        if (filename == null || filename.isEmpty()) {
            throw errors.apply(Errors.error(MPI.ERR_BAD_FILE, "empty file name"));
        }
        if ((amode & MPI.MODE_CREATE) == 0 && !Files.exists(path)) {
            throw errors.apply(Errors.error(MPI.ERR_NO_SUCH_FILE, "no such file: " + filename));
        }
        this.comm = comm;
        this.amode = amode;
    }

    /** MPI 3.1 §13.2.1: exactly one of RDONLY, RDWR, WRONLY; no CREATE or EXCL with RDONLY; no SEQUENTIAL with RDWR. */
    private void checkAccessMode(int amode) throws MPIException {
        int access = (amode & MPI.MODE_RDONLY) != 0 ? 1 : 0;
        access += (amode & MPI.MODE_WRONLY) != 0 ? 1 : 0;
        access += (amode & MPI.MODE_RDWR) != 0 ? 1 : 0;
        String wrong = null;
        if (access != 1) {
            wrong = "exactly one of MODE_RDONLY, MODE_WRONLY and MODE_RDWR is needed";
        } else if ((amode & MPI.MODE_RDONLY) != 0 && (amode & (MPI.MODE_CREATE | MPI.MODE_EXCL)) != 0) {
            wrong = "MODE_RDONLY with MODE_CREATE or MODE_EXCL";
        } else if ((amode & MPI.MODE_RDWR) != 0 && (amode & MPI.MODE_SEQUENTIAL) != 0) {
            wrong = "MODE_RDWR with MODE_SEQUENTIAL";
        }
        if (wrong != null) {
            throw errors.apply(Errors.error(MPI.ERR_AMODE, "access mode " + amode + ": " + wrong));
        }
    }

    /** An I/O operation: refused through the file's error handler. */
    private MPIException unsupported() {
        return errors.apply(closed ? Errors.error(MPI.ERR_FILE, "the file is closed")
                : Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, UNSUPPORTED));
    }

    private void live() throws MPIException {
        MPI.check();
        if (closed) {
            throw errors.apply(Errors.error(MPI.ERR_FILE, "the file is closed"));
        }
    }

    /** The current view (no MPI call, as in Open MPI). */
    public FileView getView() {
        return view;
    }

    public void close() throws MPIException {
        live();
        closed = true;
    }

    public static void delete(String filename) throws MPIException {
        throw staticUnsupported();
    }

    public static void delete(String filename, Info info) throws MPIException {
        throw staticUnsupported();
    }

    /** File.delete has no file, so no handler: MPI uses MPI_FILE_NULL's, ERRORS_RETURN. */
    private static MPIException staticUnsupported() {
        return Errors.error(MPI.ERR_UNSUPPORTED_OPERATION, UNSUPPORTED);
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
        live();
        return comm.getGroup();
    }

    public int getAMode() throws MPIException {
        live();
        return amode;
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
        live();
        errors.set(errhandler);
    }

    public Errhandler getErrhandler() throws MPIException {
        live();
        return errors.get();
    }

    /** Invokes the file's handler: ERRORS_ARE_FATAL aborts, ERRORS_RETURN returns normally (MPI 3.1 §8.3.6). */
    public void callErrhandler(int errorCode) throws MPIException {
        live();
        errors.call(errorCode);
    }
}
