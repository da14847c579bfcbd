package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.fthp.replication.datatype.BaseType;
import org.fthp.replication.error.MpiError;
import org.fthp.replication.error.NativeConstants;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.Gate;
import org.fthp.replication.verify.TwinComparison;

/**
 * Entry point of the {@code mpi} API, compatible with Open MPI's Java binding.
 * Constants are read from the ABI description of the installed native MPI, so
 * they carry that library's values.
 */
public final class MPI {

    public static final Intracomm COMM_WORLD;
    public static final Intracomm COMM_SELF;

    public static final int THREAD_SINGLE, THREAD_FUNNELED, THREAD_SERIALIZED, THREAD_MULTIPLE;
    public static final int GRAPH, DIST_GRAPH, CART;
    public static final int ANY_SOURCE, ANY_TAG;

    public static final Op MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, REPLACE, NO_OP;
    public static final Op MINLOC, MAXLOC;

    public static final Datatype DATATYPE_NULL;
    public static final Datatype BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE, PACKED;
    public static final Datatype FLOAT_COMPLEX, DOUBLE_COMPLEX;
    public static final Datatype INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT;

    public static final Int2 int2;
    public static final ShortInt shortInt;
    public static final LongInt longInt;
    public static final FloatInt floatInt;
    public static final DoubleInt doubleInt;

    public static final Request REQUEST_NULL;
    public static final Group GROUP_EMPTY;
    public static final Info INFO_ENV, INFO_NULL;

    public static final int PROC_NULL;
    public static final int UNDEFINED;
    public static final int IDENT, CONGRUENT, SIMILAR, UNEQUAL;
    public static final int TAG_UB, HOST, IO, WTIME_IS_GLOBAL;
    public static final int APPNUM, LASTUSEDCODE, UNIVERSE_SIZE, WIN_BASE, WIN_SIZE, WIN_DISP_UNIT;
    public static final int VERSION, SUBVERSION;
    public static final int ROOT, KEYVAL_INVALID, BSEND_OVERHEAD;
    public static final int MAX_OBJECT_NAME, MAX_PORT_NAME, MAX_DATAREP_STRING;
    public static final int MAX_INFO_KEY, MAX_INFO_VAL;
    public static final int ORDER_C, ORDER_FORTRAN;
    public static final int DISTRIBUTE_BLOCK, DISTRIBUTE_CYCLIC, DISTRIBUTE_NONE, DISTRIBUTE_DFLT_DARG;
    public static final int MODE_CREATE, MODE_RDONLY, MODE_WRONLY, MODE_RDWR, MODE_DELETE_ON_CLOSE,
            MODE_UNIQUE_OPEN, MODE_EXCL, MODE_APPEND, MODE_SEQUENTIAL;
    public static final int DISPLACEMENT_CURRENT;
    public static final int SEEK_SET, SEEK_CUR, SEEK_END;
    public static final int MODE_NOCHECK, MODE_NOPRECEDE, MODE_NOPUT, MODE_NOSTORE, MODE_NOSUCCEED;
    public static final int LOCK_EXCLUSIVE, LOCK_SHARED;

    public static final Errhandler ERRORS_ARE_FATAL, ERRORS_RETURN;

    public static final int SUCCESS, ERR_BUFFER, ERR_COUNT, ERR_TYPE, ERR_TAG, ERR_COMM, ERR_RANK, ERR_REQUEST,
            ERR_ROOT, ERR_GROUP, ERR_OP, ERR_TOPOLOGY, ERR_DIMS, ERR_ARG, ERR_UNKNOWN, ERR_TRUNCATE,
            ERR_OTHER, ERR_INTERN, ERR_IN_STATUS, ERR_PENDING, ERR_ACCESS, ERR_AMODE, ERR_ASSERT,
            ERR_BAD_FILE, ERR_BASE, ERR_CONVERSION, ERR_DISP, ERR_DUP_DATAREP,
            ERR_FILE_EXISTS, ERR_FILE_IN_USE, ERR_FILE, ERR_INFO_KEY, ERR_INFO_NOKEY, ERR_INFO_VALUE,
            ERR_INFO, ERR_IO, ERR_KEYVAL, ERR_LOCKTYPE, ERR_NAME, ERR_NO_MEM, ERR_NOT_SAME,
            ERR_NO_SPACE, ERR_NO_SUCH_FILE, ERR_PORT, ERR_QUOTA, ERR_READ_ONLY, ERR_RMA_CONFLICT,
            ERR_RMA_SYNC, ERR_SERVICE, ERR_SIZE, ERR_SPAWN, ERR_UNSUPPORTED_DATAREP,
            ERR_UNSUPPORTED_OPERATION, ERR_WIN, ERR_LASTCODE, ERR_SYSRESOURCE;

    static {
        NativeConstants c = NativeConstants.load();
        THREAD_SINGLE = c.get("MPI_THREAD_SINGLE", 0);
        THREAD_FUNNELED = c.get("MPI_THREAD_FUNNELED", 1);
        THREAD_SERIALIZED = c.get("MPI_THREAD_SERIALIZED", 2);
        THREAD_MULTIPLE = c.get("MPI_THREAD_MULTIPLE", 3);
        GRAPH = c.get("MPI_GRAPH", 2);
        DIST_GRAPH = c.get("MPI_DIST_GRAPH", 3);
        CART = c.get("MPI_CART", 1);
        ANY_SOURCE = c.get("MPI_ANY_SOURCE", -1);
        ANY_TAG = c.get("MPI_ANY_TAG", -1);
        PROC_NULL = c.get("MPI_PROC_NULL", -2);
        UNDEFINED = c.get("MPI_UNDEFINED", -32766);
        IDENT = c.get("MPI_IDENT", 0);
        CONGRUENT = c.get("MPI_CONGRUENT", 1);
        SIMILAR = c.get("MPI_SIMILAR", 2);
        UNEQUAL = c.get("MPI_UNEQUAL", 3);
        // predefined attribute keyvals are facade-side: small private numbers
        TAG_UB = 1; HOST = 2; IO = 3; WTIME_IS_GLOBAL = 4; APPNUM = 5; LASTUSEDCODE = 6; UNIVERSE_SIZE = 7;
        WIN_BASE = 8; WIN_SIZE = 9; WIN_DISP_UNIT = 10;
        VERSION = 3; SUBVERSION = 1;
        ROOT = c.get("MPI_ROOT", -4);
        KEYVAL_INVALID = c.get("MPI_KEYVAL_INVALID", -1);
        BSEND_OVERHEAD = c.get("MPI_BSEND_OVERHEAD", 128);
        MAX_OBJECT_NAME = c.get("MPI_MAX_OBJECT_NAME", 64);
        MAX_PORT_NAME = 1024; MAX_DATAREP_STRING = 128; MAX_INFO_KEY = 36; MAX_INFO_VAL = 256;
        ORDER_C = 0; ORDER_FORTRAN = 1;
        DISTRIBUTE_BLOCK = 0; DISTRIBUTE_CYCLIC = 1; DISTRIBUTE_NONE = 2; DISTRIBUTE_DFLT_DARG = -1;
        MODE_CREATE = 1; MODE_RDONLY = 2; MODE_WRONLY = 4; MODE_RDWR = 8; MODE_DELETE_ON_CLOSE = 16;
        MODE_UNIQUE_OPEN = 32; MODE_EXCL = 64; MODE_APPEND = 128; MODE_SEQUENTIAL = 256;
        DISPLACEMENT_CURRENT = -54278278; SEEK_SET = 600; SEEK_CUR = 602; SEEK_END = 604;
        MODE_NOCHECK = 1; MODE_NOPRECEDE = 2; MODE_NOPUT = 4; MODE_NOSTORE = 8; MODE_NOSUCCEED = 16;
        LOCK_EXCLUSIVE = 1; LOCK_SHARED = 2;

        SUCCESS = c.get("MPI_SUCCESS", 0);
        ERR_BUFFER = c.get("MPI_ERR_BUFFER", 1);
        ERR_COUNT = c.get("MPI_ERR_COUNT", 2);
        ERR_TYPE = c.get("MPI_ERR_TYPE", 3);
        ERR_TAG = c.get("MPI_ERR_TAG", 4);
        ERR_COMM = c.get("MPI_ERR_COMM", 5);
        ERR_RANK = c.get("MPI_ERR_RANK", 6);
        ERR_REQUEST = c.get("MPI_ERR_REQUEST", 7);
        ERR_ROOT = c.get("MPI_ERR_ROOT", 8);
        ERR_GROUP = c.get("MPI_ERR_GROUP", 9);
        ERR_OP = c.get("MPI_ERR_OP", 10);
        ERR_TOPOLOGY = c.get("MPI_ERR_TOPOLOGY", 11);
        ERR_DIMS = c.get("MPI_ERR_DIMS", 12);
        ERR_ARG = c.get("MPI_ERR_ARG", 13);
        ERR_UNKNOWN = c.get("MPI_ERR_UNKNOWN", 14);
        ERR_TRUNCATE = c.get("MPI_ERR_TRUNCATE", 15);
        ERR_OTHER = c.get("MPI_ERR_OTHER", 16);
        ERR_INTERN = c.get("MPI_ERR_INTERN", 17);
        ERR_IN_STATUS = c.get("MPI_ERR_IN_STATUS", 18);
        ERR_PENDING = c.get("MPI_ERR_PENDING", 19);
        ERR_ACCESS = c.get("MPI_ERR_ACCESS", 20);
        ERR_AMODE = c.get("MPI_ERR_AMODE", 21);
        ERR_ASSERT = c.get("MPI_ERR_ASSERT", 22);
        ERR_BAD_FILE = c.get("MPI_ERR_BAD_FILE", 23);
        ERR_BASE = c.get("MPI_ERR_BASE", 24);
        ERR_CONVERSION = c.get("MPI_ERR_CONVERSION", 25);
        ERR_DISP = c.get("MPI_ERR_DISP", 26);
        ERR_DUP_DATAREP = c.get("MPI_ERR_DUP_DATAREP", 27);
        ERR_FILE_EXISTS = c.get("MPI_ERR_FILE_EXISTS", 28);
        ERR_FILE_IN_USE = c.get("MPI_ERR_FILE_IN_USE", 29);
        ERR_FILE = c.get("MPI_ERR_FILE", 30);
        ERR_INFO_KEY = c.get("MPI_ERR_INFO_KEY", 31);
        ERR_INFO_NOKEY = c.get("MPI_ERR_INFO_NOKEY", 32);
        ERR_INFO_VALUE = c.get("MPI_ERR_INFO_VALUE", 33);
        ERR_INFO = c.get("MPI_ERR_INFO", 34);
        ERR_IO = c.get("MPI_ERR_IO", 35);
        ERR_KEYVAL = c.get("MPI_ERR_KEYVAL", 36);
        ERR_LOCKTYPE = c.get("MPI_ERR_LOCKTYPE", 37);
        ERR_NAME = c.get("MPI_ERR_NAME", 38);
        ERR_NO_MEM = c.get("MPI_ERR_NO_MEM", 39);
        ERR_NOT_SAME = c.get("MPI_ERR_NOT_SAME", 40);
        ERR_NO_SPACE = c.get("MPI_ERR_NO_SPACE", 41);
        ERR_NO_SUCH_FILE = c.get("MPI_ERR_NO_SUCH_FILE", 42);
        ERR_PORT = c.get("MPI_ERR_PORT", 43);
        ERR_QUOTA = c.get("MPI_ERR_QUOTA", 44);
        ERR_READ_ONLY = c.get("MPI_ERR_READ_ONLY", 45);
        ERR_RMA_CONFLICT = c.get("MPI_ERR_RMA_CONFLICT", 46);
        ERR_RMA_SYNC = c.get("MPI_ERR_RMA_SYNC", 47);
        ERR_SERVICE = c.get("MPI_ERR_SERVICE", 48);
        ERR_SIZE = c.get("MPI_ERR_SIZE", 49);
        ERR_SPAWN = c.get("MPI_ERR_SPAWN", 50);
        ERR_UNSUPPORTED_DATAREP = c.get("MPI_ERR_UNSUPPORTED_DATAREP", 51);
        ERR_UNSUPPORTED_OPERATION = c.get("MPI_ERR_UNSUPPORTED_OPERATION", 52);
        ERR_WIN = c.get("MPI_ERR_WIN", 53);
        ERR_LASTCODE = c.get("MPI_ERR_LASTCODE", 92);
        ERR_SYSRESOURCE = c.get("MPI_ERR_SYSRESOURCE", -2);

        DATATYPE_NULL = Datatype.predefined(Datatype.NULL, null, "MPI_DATATYPE_NULL");
        BYTE = Datatype.predefined(Datatype.BYTE, BaseType.BYTE, "MPI_BYTE");
        CHAR = Datatype.predefined(Datatype.CHAR, BaseType.CHAR, "MPI_CHAR");
        SHORT = Datatype.predefined(Datatype.SHORT, BaseType.SHORT, "MPI_SHORT");
        BOOLEAN = Datatype.predefined(Datatype.BOOLEAN, BaseType.BOOLEAN, "MPI_BOOLEAN");
        INT = Datatype.predefined(Datatype.INT, BaseType.INT, "MPI_INT");
        LONG = Datatype.predefined(Datatype.LONG, BaseType.LONG, "MPI_LONG");
        FLOAT = Datatype.predefined(Datatype.FLOAT, BaseType.FLOAT, "MPI_FLOAT");
        DOUBLE = Datatype.predefined(Datatype.DOUBLE, BaseType.DOUBLE, "MPI_DOUBLE");
        PACKED = Datatype.predefined(Datatype.PACKED, BaseType.PACKED, "MPI_PACKED");
        INT2 = Datatype.predefined(Datatype.INT2, BaseType.INT2, "MPI_2INT");
        SHORT_INT = Datatype.predefined(Datatype.SHORT_INT, BaseType.SHORT_INT, "MPI_SHORT_INT");
        LONG_INT = Datatype.predefined(Datatype.LONG_INT, BaseType.LONG_INT, "MPI_LONG_INT");
        FLOAT_INT = Datatype.predefined(Datatype.FLOAT_INT, BaseType.FLOAT_INT, "MPI_FLOAT_INT");
        DOUBLE_INT = Datatype.predefined(Datatype.DOUBLE_INT, BaseType.DOUBLE_INT, "MPI_DOUBLE_INT");
        FLOAT_COMPLEX = Datatype.predefined(Datatype.FLOAT_COMPLEX, BaseType.FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX");
        DOUBLE_COMPLEX = Datatype.predefined(Datatype.DOUBLE_COMPLEX, BaseType.DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX");

        MAX = new Op(1); MIN = new Op(2); SUM = new Op(3); PROD = new Op(4); LAND = new Op(5);
        BAND = new Op(6); LOR = new Op(7); BOR = new Op(8); LXOR = new Op(9); BXOR = new Op(10);
        MINLOC = new Op(11); MAXLOC = new Op(12); REPLACE = new Op(13); NO_OP = new Op(14);

        int2 = new Int2(4, 4);
        shortInt = new ShortInt(2, 4, 4);
        longInt = new LongInt(8, 8, 4);
        floatInt = new FloatInt(4, 4);
        doubleInt = new DoubleInt(8, 4);

        REQUEST_NULL = new Request(0);
        GROUP_EMPTY = new Group(new int[0]);
        INFO_ENV = Info.newEnv();
        INFO_NULL = new Info(0);
        ERRORS_ARE_FATAL = new Errhandler(Errhandler.FATAL);
        ERRORS_RETURN = new Errhandler(Errhandler.RETURN);
        COMM_WORLD = new Intracomm();
        COMM_SELF = new Intracomm();
    }


    public MPI() {
    }

    protected static void check() throws MPIException {
        if (!Engine.isInitialized()) {
            throw Errors.error(ERR_OTHER, "MPI is not initialized.");
        }
        if (Engine.isFinalized()) {
            throw Errors.error(ERR_OTHER, "MPI is finalized.");
        }
    }

    /**
     * The gate of the running engine, which every call that reaches
     * communicators, requests or logs holds for its whole length; an error
     * if MPI is not running.
     */
    static Gate gate() throws MPIException {
        Gate gate = Engine.runningGate();   // one call: every call of the program starts here, interpreted at first
        if (gate != null) {
            return gate;
        }
        Engine engine = Engine.get();
        if (engine == null || !engine.running()) {
            check();   // says which
        }
        return engine.gate();
    }

    public static String[] Init(String[] args) throws MPIException {
        InitThread(args, THREAD_SINGLE);
        return args;
    }

    public static int InitThread(String[] args, int required) throws MPIException {
        Engine engine;
        try {
            engine = Engine.start(required, THREAD_SERIALIZED, THREAD_SINGLE);
        } catch (MpiError e) {
            throw Errors.from(e);
        }
        COMM_WORLD.attach(engine.world());
        COMM_SELF.attach(engine.self());
        // the predefined communicators carry over a rollback in place (Checkpoint.resilient): the new engine's
        Engine.onRebuilt(rebuilt -> {
            COMM_WORLD.attach(rebuilt.world());
            COMM_SELF.attach(rebuilt.self());
        });
        return engine.threadLevel();
    }

    public static int queryThread() throws MPIException {
        check();
        return Engine.get().threadLevel();
    }

    public static boolean isThreadMain() throws MPIException {
        check();
        return Thread.currentThread() == Engine.get().mainThread();
    }

    public static void Finalize() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            // the twins' last comparison, before anything of the finalize
            TwinComparison.atFinalize(Engine.get());
            Engine.get().finish();
        } finally {
            gate.exit();
        }
    }

    public static double wtime() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            return Engine.get().wtime();
        } finally {
            gate.exit();
        }
    }

    public static double wtick() throws MPIException {
        check();
        return Engine.get().wtick();
    }

    public static Version getVersion() {
        return new Version(3, 1);
    }

    public static String getLibVersion() {
        return Engine.libraryVersion();
    }

    public static String getProcessorName() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            return Engine.get().processorName();
        } finally {
            gate.exit();
        }
    }

    public static boolean isInitialized() throws MPIException {
        return Engine.isInitialized();
    }

    public static boolean isFinalized() throws MPIException {
        return Engine.isFinalized();
    }

    /**
     * Attaches the buffer that bounds buffered-mode sends: each outstanding
     * buffered message holds its bytes plus {@link #BSEND_OVERHEAD} of it
     * (the data itself is staged off-heap, like every send's).
     */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        Gate gate = gate();
        gate.enter();
        try {
            BufferedMode.attach(buffer);
        } catch (MPIException e) {
            throw COMM_WORLD.fail(e);
        } finally {
            gate.exit();
        }
    }

    /** Waits until every buffered message has been sent, and returns the buffer that was attached. */
    public static byte[] detachBuffer() throws MPIException {
        Gate gate = gate();
        gate.enter();
        try {
            return BufferedMode.detach();
        } catch (MPIException | RuntimeException e) {
            throw COMM_WORLD.fail(e);
        } finally {
            gate.exit();
        }
    }

    public static void pControl(int level, Object obj) {
    }

    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return buf.clear().position(offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    protected static byte[] attrSet(Object value) throws MPIException {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(value);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new MPIException(e);
        }
    }

    protected static Object attrGet(byte[] value) throws MPIException {
        if (value == null) {
            return null;
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(value))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new MPIException(e);
        }
    }

    protected static void assertDirectBuffer(Buffer buf) {
        if (!buf.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
    }

    protected static void assertDirectBuffer(Buffer sendbuf, Buffer recvbuf) {
        if (!sendbuf.isDirect()) {
            throw new IllegalArgumentException("The send buffer must be direct.");
        }
        if (!recvbuf.isDirect()) {
            throw new IllegalArgumentException("The recv. buffer must be direct.");
        }
    }

    protected static boolean isDirectBuffer(Object obj) {
        return obj instanceof Buffer b && b.isDirect();
    }

    protected static boolean isHeapBuffer(Object obj) {
        return obj instanceof Buffer b && !b.isDirect();
    }
}
