package org.fthp.empi;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.fthp.empi.abi.AbiProbe;
import org.fthp.empi.abi.EmpiAbi;

/**
 * The EMPI layer: downcalls into the native MPI library, renamed so that the
 * facade above can be called MPI without confusion (the paper's EMPI_ prefix).
 *
 * <p>Every wrapper checks the return code and turns a failure into an
 * {@link EmpiException} carrying the library's own error string. Handles are
 * {@code long} whatever their native width. The class initialises on first use:
 * callers that want a clean error instead of {@link ExceptionInInitializerError}
 * call {@link #load()} first.
 */
public final class Empi {

    private static final EmpiAbi ABI;
    private static final SymbolLookup LIB;
    private static final Downcalls DC;

    static {
        try {
            ABI = AbiProbe.load();
        } catch (IOException e) {
            throw new EmpiException("cannot describe the native MPI library: " + e.getMessage(), e);
        }
        String override = System.getenv("FTHP_EMPI_LIB");
        LIB = NativeLibrary.open(override != null && !override.isBlank() ? override : ABI.libraryPath());
        DC = new Downcalls(LIB, ABI.handleBytes());
    }

    /** Width of a native handle in bytes (request arrays, out-parameters). */
    public static final int HANDLE_BYTES = ABI.handleBytes();
    public static final int STATUS_BYTES = ABI.statusBytes();
    private static final long STATUS_SOURCE = ABI.statusSourceOffset();
    private static final long STATUS_TAG = ABI.statusTagOffset();
    private static final long STATUS_ERROR = ABI.statusErrorOffset();

    public static final int SUCCESS = ABI.constant("MPI_SUCCESS");
    public static final int ANY_SOURCE = ABI.constant("MPI_ANY_SOURCE");
    public static final int ANY_TAG = ABI.constant("MPI_ANY_TAG");
    public static final int PROC_NULL = ABI.constant("MPI_PROC_NULL");
    public static final int ROOT = ABI.constant("MPI_ROOT");
    public static final int UNDEFINED = ABI.constant("MPI_UNDEFINED");
    public static final int MAX_ERROR_STRING = ABI.constant("MPI_MAX_ERROR_STRING");
    public static final int MAX_PROCESSOR_NAME = ABI.constant("MPI_MAX_PROCESSOR_NAME");
    public static final int THREAD_MULTIPLE = ABI.constant("MPI_THREAD_MULTIPLE");

    public static final long COMM_WORLD = handle("MPI_COMM_WORLD");
    public static final long COMM_SELF = handle("MPI_COMM_SELF");
    public static final long COMM_NULL = handle("MPI_COMM_NULL");
    public static final long GROUP_EMPTY = handle("MPI_GROUP_EMPTY");
    public static final long GROUP_NULL = handle("MPI_GROUP_NULL");
    public static final long REQUEST_NULL = handle("MPI_REQUEST_NULL");
    public static final long DATATYPE_NULL = handle("MPI_DATATYPE_NULL");
    public static final long OP_NULL = handle("MPI_OP_NULL");
    public static final long MESSAGE_NULL = handle("MPI_MESSAGE_NULL");
    public static final long MESSAGE_NO_PROC = handle("MPI_MESSAGE_NO_PROC");
    public static final long ERRORS_RETURN = handle("MPI_ERRORS_RETURN");
    public static final long BYTE = handle("MPI_BYTE");
    /** MPI_BOTTOM, the base of datatypes built from absolute addresses. */
    public static final MemorySegment BOTTOM = MemorySegment.ofAddress(ABI.bottomAddress());

    private Empi() {}

    /** Initialises the binding, turning any failure into an {@link EmpiException}. */
    public static EmpiAbi load() {
        try {
            return abi();
        } catch (ExceptionInInitializerError e) {
            Throwable cause = e.getCause();
            throw cause instanceof EmpiException ee ? ee : new EmpiException(String.valueOf(cause), cause);
        } catch (NoClassDefFoundError e) {
            throw new EmpiException("native MPI binding failed to initialise earlier in this process", e);
        }
    }

    public static EmpiAbi abi() { return ABI; }

    /** A predefined handle by its C name, e.g. {@code MPI_DOUBLE}. */
    public static long handle(String cName) {
        return switch (ABI.handle(cName)) {
            case EmpiAbi.Symbol s -> LIB.find(s.name()).orElseThrow(
                    () -> new EmpiException("native MPI library does not export " + s.name() + " for " + cName))
                    .address();
            case EmpiAbi.IntValue v -> v.value();
        };
    }

    /** An integer constant by its C name, e.g. {@code MPI_ERR_RANK}. */
    public static int constant(String cName) {
        return ABI.constant(cName);
    }

    // ---- handles and statuses in native memory ----

    public static long getHandle(MemorySegment seg, long index) {
        return HANDLE_BYTES == 8 ? seg.getAtIndex(ValueLayout.JAVA_LONG, index)
                : seg.getAtIndex(ValueLayout.JAVA_INT, index);
    }

    public static void setHandle(MemorySegment seg, long index, long handle) {
        if (HANDLE_BYTES == 8) {
            seg.setAtIndex(ValueLayout.JAVA_LONG, index, handle);
        } else {
            seg.setAtIndex(ValueLayout.JAVA_INT, index, (int) handle);
        }
    }

    public static MemorySegment allocateHandles(Arena arena, int n) {
        MemorySegment seg = arena.allocate((long) HANDLE_BYTES * Math.max(1, n), 8);
        return seg;
    }

    public static MemorySegment allocateStatuses(Arena arena, int n) {
        return arena.allocate((long) STATUS_BYTES * Math.max(1, n), 8);
    }

    public static int statusSource(MemorySegment statuses, long index) {
        return statuses.get(ValueLayout.JAVA_INT, index * STATUS_BYTES + STATUS_SOURCE);
    }

    public static int statusTag(MemorySegment statuses, long index) {
        return statuses.get(ValueLayout.JAVA_INT, index * STATUS_BYTES + STATUS_TAG);
    }

    public static int statusError(MemorySegment statuses, long index) {
        return statuses.get(ValueLayout.JAVA_INT, index * STATUS_BYTES + STATUS_ERROR);
    }

    /** Bytes received according to the status at {@code index} (MPI_Get_count with MPI_BYTE). */
    public static int statusBytes(MemorySegment statuses, long index, MemorySegment intScratch) {
        getCount(index == 0 ? statuses : statuses.asSlice(index * STATUS_BYTES, STATUS_BYTES), BYTE, intScratch);
        return intScratch.get(ValueLayout.JAVA_INT, 0);
    }

    // ---- errors ----

    /** The library's text for an error code (MPI_Error_string). */
    public static String errorString(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(MAX_ERROR_STRING + 1);
            MemorySegment len = a.allocate(ValueLayout.JAVA_INT);
            int rc = (int) MH_ERROR_STRING.invokeExact(code, buf, len);
            if (rc != SUCCESS) {
                return "MPI error " + code;
            }
            return buf.getString(0);
        } catch (Throwable t) {
            return "MPI error " + code;
        }
    }

    /** The error class of a code (MPI_Error_class), or the code itself if that fails. */
    public static int errorClassOf(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
            int rc = (int) MH_ERROR_CLASS.invokeExact(code, out);
            return rc == SUCCESS ? out.get(ValueLayout.JAVA_INT, 0) : code;
        } catch (Throwable t) {
            return code;
        }
    }

    private static EmpiException failure(String function, int rc) {
        return new EmpiException(function + ": " + errorString(rc), rc, errorClassOf(rc));
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new EmpiException("native call failed: " + t, t);
    }

    // ---- downcall handles ----
    // Only nonblocking calls on the data path (DESIGN §3): no blocking receive, send, wait, probe or
    // collective is bound, so nothing here can wait on a dead process.
    // "critical" marks short calls that never call back into Java: the binding
    // registers no native callbacks (user reduction operations run in Java), so
    // even MPI_Test, which drives the library's progress engine, qualifies.

    private static final MethodHandle MH_INIT_THREAD = DC.full("MPI_Init_thread", "ippip");
    private static final MethodHandle MH_FINALIZE = DC.full("MPI_Finalize", "i");
    private static final MethodHandle MH_WTIME = DC.critical("MPI_Wtime", "d");
    private static final MethodHandle MH_ERROR_STRING = DC.full("MPI_Error_string", "iipp");
    private static final MethodHandle MH_ERROR_CLASS = DC.full("MPI_Error_class", "iip");
    private static final MethodHandle MH_COMM_SIZE = DC.critical("MPI_Comm_size", "ihp");
    private static final MethodHandle MH_COMM_RANK = DC.critical("MPI_Comm_rank", "ihp");
    private static final MethodHandle MH_COMM_IDUP = DC.full("MPI_Comm_idup", "ihpp");
    private static final MethodHandle MH_TESTALL = DC.critical("MPI_Testall", "iippp");
    private static final MethodHandle MH_COMM_SET_ERRHANDLER = DC.full("MPI_Comm_set_errhandler", "ihh");
    private static final MethodHandle MH_ISEND = DC.critical("MPI_Isend", "ipihiihp");
    private static final MethodHandle MH_ISSEND = DC.critical("MPI_Issend", "ipihiihp");
    private static final MethodHandle MH_IRECV = DC.critical("MPI_Irecv", "ipihiihp");
    private static final MethodHandle MH_IPROBE = DC.critical("MPI_Iprobe", "iiihpp");
    private static final MethodHandle MH_IMPROBE = DC.critical("MPI_Improbe", "iiihppp");
    private static final MethodHandle MH_IMRECV = DC.critical("MPI_Imrecv", "ipihpp");
    private static final MethodHandle MH_TEST = DC.critical("MPI_Test", "ippp");
    private static final MethodHandle MH_CANCEL = DC.full("MPI_Cancel", "ip");
    private static final MethodHandle MH_GET_COUNT = DC.critical("MPI_Get_count", "iphp");
    private static final MethodHandle MH_TEST_CANCELLED = DC.critical("MPI_Test_cancelled", "ipp");


    // Handles outside the data path are bound on first use, a group at a time: binding a
    // downcall costs milliseconds, and a rank that binds all of them at start-up spends
    // about a second of CPU before MPI_Init, which many ranks on a few cores feel.

    /** Downcalls for nonblocking collectives and local reductions, bound when the first is used. */
    private static final class Collectives {
        static final MethodHandle MH_INITIALIZED = DC.full("MPI_Initialized", "ip");
        static final MethodHandle MH_IS_THREAD_MAIN = DC.full("MPI_Is_thread_main", "ip");
        static final MethodHandle MH_INTERCOMM_CREATE = DC.full("MPI_Intercomm_create", "ihihiip");
        static final MethodHandle MH_INTERCOMM_MERGE = DC.full("MPI_Intercomm_merge", "ihip");
        static final MethodHandle MH_IBARRIER = DC.full("MPI_Ibarrier", "ihp");
        static final MethodHandle MH_IBCAST = DC.full("MPI_Ibcast", "ipihihp");
        static final MethodHandle MH_IREDUCE = DC.full("MPI_Ireduce", "ippihhihp");
        static final MethodHandle MH_IALLREDUCE = DC.full("MPI_Iallreduce", "ippihhhp");
        static final MethodHandle MH_IGATHER = DC.full("MPI_Igather", "ipihpihihp");
        static final MethodHandle MH_IGATHERV = DC.full("MPI_Igatherv", "ipihppphihp");
        static final MethodHandle MH_ISCATTER = DC.full("MPI_Iscatter", "ipihpihihp");
        static final MethodHandle MH_ISCATTERV = DC.full("MPI_Iscatterv", "ippphpihihp");
        static final MethodHandle MH_IALLGATHER = DC.full("MPI_Iallgather", "ipihpihhp");
        static final MethodHandle MH_IALLGATHERV = DC.full("MPI_Iallgatherv", "ipihppphhp");
        static final MethodHandle MH_IALLTOALL = DC.full("MPI_Ialltoall", "ipihpihhp");
        static final MethodHandle MH_IALLTOALLV = DC.full("MPI_Ialltoallv", "ippphppphhp");
        static final MethodHandle MH_IREDUCE_SCATTER = DC.full("MPI_Ireduce_scatter", "ippphhhp");
        static final MethodHandle MH_IREDUCE_SCATTER_BLOCK = DC.full("MPI_Ireduce_scatter_block", "ippihhhp");
        static final MethodHandle MH_ISCAN = DC.full("MPI_Iscan", "ippihhhp");
        static final MethodHandle MH_IEXSCAN = DC.full("MPI_Iexscan", "ippihhhp");
        static final MethodHandle MH_REDUCE_LOCAL = DC.full("MPI_Reduce_local", "ippihh");
    }

    /** Downcalls for calls a run makes a few times, if at all, bound when the first is used. */
    private static final class Rare {
        static final MethodHandle MH_FINALIZED = DC.full("MPI_Finalized", "ip");
        static final MethodHandle MH_ABORT = DC.full("MPI_Abort", "ihi");
        static final MethodHandle MH_WTICK = DC.critical("MPI_Wtick", "d");
        static final MethodHandle MH_GET_PROCESSOR_NAME = DC.full("MPI_Get_processor_name", "ipp");
        static final MethodHandle MH_GET_VERSION = DC.full("MPI_Get_version", "ipp");
        static final MethodHandle MH_GET_LIBRARY_VERSION = DC.full("MPI_Get_library_version", "ipp");
        static final MethodHandle MH_QUERY_THREAD = DC.full("MPI_Query_thread", "ip");
        static final MethodHandle MH_TESTSOME = DC.full("MPI_Testsome", "iipppp");
        static final MethodHandle MH_REQUEST_FREE = DC.full("MPI_Request_free", "ip");
        static final MethodHandle MH_OP_CREATE = DC.full("MPI_Op_create", "ipip");
        static final MethodHandle MH_OP_FREE = DC.full("MPI_Op_free", "ip");
    }

    /** Downcalls for communicator and group management, bound when the first is used. */
    private static final class Comms {
        static final MethodHandle MH_COMM_DUP = DC.full("MPI_Comm_dup", "ihp");
        static final MethodHandle MH_COMM_SPLIT = DC.full("MPI_Comm_split", "ihiip");
        static final MethodHandle MH_COMM_CREATE = DC.full("MPI_Comm_create", "ihhp");
        static final MethodHandle MH_COMM_CREATE_GROUP = DC.full("MPI_Comm_create_group", "ihhip");
        static final MethodHandle MH_COMM_FREE = DC.full("MPI_Comm_free", "ip");
        static final MethodHandle MH_COMM_GROUP = DC.full("MPI_Comm_group", "ihp");
        static final MethodHandle MH_COMM_REMOTE_GROUP = DC.full("MPI_Comm_remote_group", "ihp");
        static final MethodHandle MH_COMM_REMOTE_SIZE = DC.full("MPI_Comm_remote_size", "ihp");
        static final MethodHandle MH_COMM_TEST_INTER = DC.full("MPI_Comm_test_inter", "ihp");
        static final MethodHandle MH_COMM_COMPARE = DC.full("MPI_Comm_compare", "ihhp");
        static final MethodHandle MH_GROUP_SIZE = DC.full("MPI_Group_size", "ihp");
        static final MethodHandle MH_GROUP_RANK = DC.full("MPI_Group_rank", "ihp");
        static final MethodHandle MH_GROUP_INCL = DC.full("MPI_Group_incl", "ihipp");
        static final MethodHandle MH_GROUP_FREE = DC.full("MPI_Group_free", "ip");
        static final MethodHandle MH_GROUP_TRANSLATE_RANKS = DC.full("MPI_Group_translate_ranks", "ihiphp");
    }

    /** Downcalls for derived datatypes, bound when the first is used. */
    private static final class Types {
        static final MethodHandle MH_TYPE_CONTIGUOUS = DC.full("MPI_Type_contiguous", "iihp");
        static final MethodHandle MH_TYPE_VECTOR = DC.full("MPI_Type_vector", "iiiihp");
        static final MethodHandle MH_TYPE_CREATE_HVECTOR = DC.full("MPI_Type_create_hvector", "iiiahp");
        static final MethodHandle MH_TYPE_INDEXED = DC.full("MPI_Type_indexed", "iipphp");
        static final MethodHandle MH_TYPE_CREATE_HINDEXED = DC.full("MPI_Type_create_hindexed", "iipphp");
        static final MethodHandle MH_TYPE_CREATE_INDEXED_BLOCK = DC.full("MPI_Type_create_indexed_block", "iiiphp");
        static final MethodHandle MH_TYPE_CREATE_STRUCT = DC.full("MPI_Type_create_struct", "iipppp");
        static final MethodHandle MH_TYPE_CREATE_RESIZED = DC.full("MPI_Type_create_resized", "ihaap");
        static final MethodHandle MH_TYPE_COMMIT = DC.full("MPI_Type_commit", "ip");
        static final MethodHandle MH_TYPE_FREE = DC.full("MPI_Type_free", "ip");
        static final MethodHandle MH_TYPE_SIZE = DC.full("MPI_Type_size", "ihp");
        static final MethodHandle MH_TYPE_GET_EXTENT = DC.full("MPI_Type_get_extent", "ihpp");
        static final MethodHandle MH_TYPE_GET_TRUE_EXTENT = DC.full("MPI_Type_get_true_extent", "ihpp");
    }

    // ---- wrappers ----

    /** MPI_Testall over {@code count} adjacent request handles and statuses. */
    public static void testall(int count, MemorySegment requests, MemorySegment flag, MemorySegment statuses) {
        int rc;
        try {
            rc = (int) MH_TESTALL.invokeExact(count, requests, flag, statuses);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Testall", rc);
        }
    }

    /** MPI_Comm_idup: the nonblocking duplicate; {@code newcomm} is valid once the request completes. */
    public static void commIdup(long a0, MemorySegment a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) MH_COMM_IDUP.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_idup", rc);
        }
    }

    /** MPI_Init_thread; throws {@link EmpiException} on a non-success return. */
    public static void initThread(MemorySegment a0, MemorySegment a1, int a2, MemorySegment a3) {
        int rc;
        try {
            rc = (int) MH_INIT_THREAD.invokeExact(a0, a1, a2, a3);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Init_thread", rc);
        }
    }

    /** MPI_Initialized; throws {@link EmpiException} on a non-success return. */
    public static void initialized(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Collectives.MH_INITIALIZED.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Initialized", rc);
        }
    }

    /** MPI_Finalized; throws {@link EmpiException} on a non-success return. */
    public static void finalized(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Rare.MH_FINALIZED.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Finalized", rc);
        }
    }

    /** MPI_Finalize; throws {@link EmpiException} on a non-success return. */
    public static void finalizeMpi() {
        int rc;
        try {
            rc = (int) MH_FINALIZE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Finalize", rc);
        }
    }

    /** MPI_Abort; throws {@link EmpiException} on a non-success return. */
    public static void abort(long a0, int a1) {
        int rc;
        try {
            rc = (int) Rare.MH_ABORT.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Abort", rc);
        }
    }

    public static double wtime() {
        try {
            return (double) MH_WTIME.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static double wtick() {
        try {
            return (double) Rare.MH_WTICK.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** MPI_Get_processor_name; throws {@link EmpiException} on a non-success return. */
    public static void getProcessorName(MemorySegment a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Rare.MH_GET_PROCESSOR_NAME.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_processor_name", rc);
        }
    }

    /** MPI_Error_string; throws {@link EmpiException} on a non-success return. */
    public static void errorString(int a0, MemorySegment a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) MH_ERROR_STRING.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Error_string", rc);
        }
    }

    /** MPI_Error_class; throws {@link EmpiException} on a non-success return. */
    public static void errorClass(int a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) MH_ERROR_CLASS.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Error_class", rc);
        }
    }

    /** MPI_Get_version; throws {@link EmpiException} on a non-success return. */
    public static void getVersion(MemorySegment a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Rare.MH_GET_VERSION.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_version", rc);
        }
    }

    /** MPI_Get_library_version; throws {@link EmpiException} on a non-success return. */
    public static void getLibraryVersion(MemorySegment a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Rare.MH_GET_LIBRARY_VERSION.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_library_version", rc);
        }
    }

    /** MPI_Query_thread; throws {@link EmpiException} on a non-success return. */
    public static void queryThread(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Rare.MH_QUERY_THREAD.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Query_thread", rc);
        }
    }

    /** MPI_Is_thread_main; throws {@link EmpiException} on a non-success return. */
    public static void isThreadMain(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Collectives.MH_IS_THREAD_MAIN.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Is_thread_main", rc);
        }
    }

    /** MPI_Comm_size; throws {@link EmpiException} on a non-success return. */
    public static void commSize(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) MH_COMM_SIZE.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_size", rc);
        }
    }

    /** MPI_Comm_rank; throws {@link EmpiException} on a non-success return. */
    public static void commRank(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) MH_COMM_RANK.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_rank", rc);
        }
    }

    /** MPI_Comm_dup; throws {@link EmpiException} on a non-success return. */
    public static void commDup(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_DUP.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_dup", rc);
        }
    }

    /** MPI_Comm_split; throws {@link EmpiException} on a non-success return. */
    public static void commSplit(long a0, int a1, int a2, MemorySegment a3) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_SPLIT.invokeExact(a0, a1, a2, a3);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_split", rc);
        }
    }

    /** MPI_Comm_create; throws {@link EmpiException} on a non-success return. */
    public static void commCreate(long a0, long a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_CREATE.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_create", rc);
        }
    }

    /** MPI_Comm_create_group; throws {@link EmpiException} on a non-success return. */
    public static void commCreateGroup(long a0, long a1, int a2, MemorySegment a3) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_CREATE_GROUP.invokeExact(a0, a1, a2, a3);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_create_group", rc);
        }
    }

    /** MPI_Comm_free; throws {@link EmpiException} on a non-success return. */
    public static void commFree(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_FREE.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_free", rc);
        }
    }

    /** MPI_Comm_group; throws {@link EmpiException} on a non-success return. */
    public static void commGroup(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_GROUP.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_group", rc);
        }
    }

    /** MPI_Comm_remote_group; throws {@link EmpiException} on a non-success return. */
    public static void commRemoteGroup(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_REMOTE_GROUP.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_remote_group", rc);
        }
    }

    /** MPI_Comm_remote_size; throws {@link EmpiException} on a non-success return. */
    public static void commRemoteSize(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_REMOTE_SIZE.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_remote_size", rc);
        }
    }

    /** MPI_Comm_test_inter; throws {@link EmpiException} on a non-success return. */
    public static void commTestInter(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_TEST_INTER.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_test_inter", rc);
        }
    }

    /** MPI_Comm_compare; throws {@link EmpiException} on a non-success return. */
    public static void commCompare(long a0, long a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_COMPARE.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_compare", rc);
        }
    }

    /** MPI_Comm_set_errhandler; throws {@link EmpiException} on a non-success return. */
    public static void commSetErrhandler(long a0, long a1) {
        int rc;
        try {
            rc = (int) MH_COMM_SET_ERRHANDLER.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_set_errhandler", rc);
        }
    }

    /** MPI_Intercomm_create; throws {@link EmpiException} on a non-success return. */
    public static void intercommCreate(long a0, int a1, long a2, int a3, int a4, MemorySegment a5) {
        int rc;
        try {
            rc = (int) Collectives.MH_INTERCOMM_CREATE.invokeExact(a0, a1, a2, a3, a4, a5);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Intercomm_create", rc);
        }
    }

    /** MPI_Intercomm_merge; throws {@link EmpiException} on a non-success return. */
    public static void intercommMerge(long a0, int a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) Collectives.MH_INTERCOMM_MERGE.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Intercomm_merge", rc);
        }
    }

    /** MPI_Group_size; throws {@link EmpiException} on a non-success return. */
    public static void groupSize(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_SIZE.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_size", rc);
        }
    }

    /** MPI_Group_rank; throws {@link EmpiException} on a non-success return. */
    public static void groupRank(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_RANK.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_rank", rc);
        }
    }

    /** MPI_Group_incl; throws {@link EmpiException} on a non-success return. */
    public static void groupIncl(long a0, int a1, MemorySegment a2, MemorySegment a3) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_INCL.invokeExact(a0, a1, a2, a3);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_incl", rc);
        }
    }

    /** MPI_Group_free; throws {@link EmpiException} on a non-success return. */
    public static void groupFree(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_FREE.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_free", rc);
        }
    }

    /** MPI_Group_translate_ranks; throws {@link EmpiException} on a non-success return. */
    public static void groupTranslateRanks(long a0, int a1, MemorySegment a2, long a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_TRANSLATE_RANKS.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_translate_ranks", rc);
        }
    }

    /** MPI_Isend; throws {@link EmpiException} on a non-success return. */
    public static void isend(MemorySegment a0, int a1, long a2, int a3, int a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) MH_ISEND.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Isend", rc);
        }
    }

    /** MPI_Issend; throws {@link EmpiException} on a non-success return. */
    public static void issend(MemorySegment a0, int a1, long a2, int a3, int a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) MH_ISSEND.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Issend", rc);
        }
    }

    /** MPI_Irecv; throws {@link EmpiException} on a non-success return. */
    public static void irecv(MemorySegment a0, int a1, long a2, int a3, int a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) MH_IRECV.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Irecv", rc);
        }
    }

    /** MPI_Iprobe; throws {@link EmpiException} on a non-success return. */
    public static void iprobe(int a0, int a1, long a2, MemorySegment a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) MH_IPROBE.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iprobe", rc);
        }
    }

    /** MPI_Improbe; throws {@link EmpiException} on a non-success return. */
    public static void improbe(int a0, int a1, long a2, MemorySegment a3, MemorySegment a4, MemorySegment a5) {
        int rc;
        try {
            rc = (int) MH_IMPROBE.invokeExact(a0, a1, a2, a3, a4, a5);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Improbe", rc);
        }
    }

    /** MPI_Imrecv; throws {@link EmpiException} on a non-success return. */
    public static void imrecv(MemorySegment a0, int a1, long a2, MemorySegment a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) MH_IMRECV.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Imrecv", rc);
        }
    }

    /** MPI_Test; throws {@link EmpiException} on a non-success return. */
    public static void test(MemorySegment a0, MemorySegment a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) MH_TEST.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Test", rc);
        }
    }

    /** MPI_Testsome; throws {@link EmpiException} on a non-success return. */
    public static void testsome(int a0, MemorySegment a1, MemorySegment a2, MemorySegment a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Rare.MH_TESTSOME.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Testsome", rc);
        }
    }

    /** MPI_Cancel; throws {@link EmpiException} on a non-success return. */
    public static void cancel(MemorySegment a0) {
        int rc;
        try {
            rc = (int) MH_CANCEL.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Cancel", rc);
        }
    }

    /** MPI_Request_free; throws {@link EmpiException} on a non-success return. */
    public static void requestFree(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Rare.MH_REQUEST_FREE.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Request_free", rc);
        }
    }

    /** MPI_Get_count; throws {@link EmpiException} on a non-success return. */
    public static void getCount(MemorySegment a0, long a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) MH_GET_COUNT.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_count", rc);
        }
    }

    /** MPI_Test_cancelled; throws {@link EmpiException} on a non-success return. */
    public static void testCancelled(MemorySegment a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) MH_TEST_CANCELLED.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Test_cancelled", rc);
        }
    }

    /** MPI_Ibarrier; throws {@link EmpiException} on a non-success return. */
    public static void ibarrier(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Collectives.MH_IBARRIER.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ibarrier", rc);
        }
    }

    /** MPI_Ibcast; throws {@link EmpiException} on a non-success return. */
    public static void ibcast(MemorySegment a0, int a1, long a2, int a3, long a4, MemorySegment a5) {
        int rc;
        try {
            rc = (int) Collectives.MH_IBCAST.invokeExact(a0, a1, a2, a3, a4, a5);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ibcast", rc);
        }
    }

    /** MPI_Ireduce; throws {@link EmpiException} on a non-success return. */
    public static void ireduce(MemorySegment a0, MemorySegment a1, int a2, long a3, long a4, int a5, long a6, MemorySegment a7) {
        int rc;
        try {
            rc = (int) Collectives.MH_IREDUCE.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ireduce", rc);
        }
    }

    /** MPI_Iallreduce; throws {@link EmpiException} on a non-success return. */
    public static void iallreduce(MemorySegment a0, MemorySegment a1, int a2, long a3, long a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLREDUCE.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iallreduce", rc);
        }
    }

    /** MPI_Igather; throws {@link EmpiException} on a non-success return. */
    public static void igather(MemorySegment a0, int a1, long a2, MemorySegment a3, int a4, long a5, int a6, long a7, MemorySegment a8) {
        int rc;
        try {
            rc = (int) Collectives.MH_IGATHER.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7, a8);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Igather", rc);
        }
    }

    /** MPI_Igatherv; throws {@link EmpiException} on a non-success return. */
    public static void igatherv(MemorySegment a0, int a1, long a2, MemorySegment a3, MemorySegment a4, MemorySegment a5, long a6, int a7, long a8, MemorySegment a9) {
        int rc;
        try {
            rc = (int) Collectives.MH_IGATHERV.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Igatherv", rc);
        }
    }

    /** MPI_Iscatter; throws {@link EmpiException} on a non-success return. */
    public static void iscatter(MemorySegment a0, int a1, long a2, MemorySegment a3, int a4, long a5, int a6, long a7, MemorySegment a8) {
        int rc;
        try {
            rc = (int) Collectives.MH_ISCATTER.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7, a8);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iscatter", rc);
        }
    }

    /** MPI_Iscatterv; throws {@link EmpiException} on a non-success return. */
    public static void iscatterv(MemorySegment a0, MemorySegment a1, MemorySegment a2, long a3, MemorySegment a4, int a5, long a6, int a7, long a8, MemorySegment a9) {
        int rc;
        try {
            rc = (int) Collectives.MH_ISCATTERV.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iscatterv", rc);
        }
    }

    /** MPI_Iallgather; throws {@link EmpiException} on a non-success return. */
    public static void iallgather(MemorySegment a0, int a1, long a2, MemorySegment a3, int a4, long a5, long a6, MemorySegment a7) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLGATHER.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iallgather", rc);
        }
    }

    /** MPI_Iallgatherv; throws {@link EmpiException} on a non-success return. */
    public static void iallgatherv(MemorySegment a0, int a1, long a2, MemorySegment a3, MemorySegment a4, MemorySegment a5, long a6, long a7, MemorySegment a8) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLGATHERV.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7, a8);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iallgatherv", rc);
        }
    }

    /** MPI_Ialltoall; throws {@link EmpiException} on a non-success return. */
    public static void ialltoall(MemorySegment a0, int a1, long a2, MemorySegment a3, int a4, long a5, long a6, MemorySegment a7) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLTOALL.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ialltoall", rc);
        }
    }

    /** MPI_Ialltoallv; throws {@link EmpiException} on a non-success return. */
    public static void ialltoallv(MemorySegment a0, MemorySegment a1, MemorySegment a2, long a3, MemorySegment a4, MemorySegment a5, MemorySegment a6, long a7, long a8, MemorySegment a9) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLTOALLV.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ialltoallv", rc);
        }
    }

    /** MPI_Ireduce_scatter; throws {@link EmpiException} on a non-success return. */
    public static void ireduceScatter(MemorySegment a0, MemorySegment a1, MemorySegment a2, long a3, long a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) Collectives.MH_IREDUCE_SCATTER.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ireduce_scatter", rc);
        }
    }

    /** MPI_Ireduce_scatter_block; throws {@link EmpiException} on a non-success return. */
    public static void ireduceScatterBlock(MemorySegment a0, MemorySegment a1, int a2, long a3, long a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) Collectives.MH_IREDUCE_SCATTER_BLOCK.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ireduce_scatter_block", rc);
        }
    }

    /** MPI_Iscan; throws {@link EmpiException} on a non-success return. */
    public static void iscan(MemorySegment a0, MemorySegment a1, int a2, long a3, long a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) Collectives.MH_ISCAN.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iscan", rc);
        }
    }

    /** MPI_Iexscan; throws {@link EmpiException} on a non-success return. */
    public static void iexscan(MemorySegment a0, MemorySegment a1, int a2, long a3, long a4, long a5, MemorySegment a6) {
        int rc;
        try {
            rc = (int) Collectives.MH_IEXSCAN.invokeExact(a0, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iexscan", rc);
        }
    }

    /** MPI_Reduce_local; throws {@link EmpiException} on a non-success return. */
    public static void reduceLocal(MemorySegment a0, MemorySegment a1, int a2, long a3, long a4) {
        int rc;
        try {
            rc = (int) Collectives.MH_REDUCE_LOCAL.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Reduce_local", rc);
        }
    }

    /** MPI_Type_contiguous; throws {@link EmpiException} on a non-success return. */
    public static void typeContiguous(int a0, long a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CONTIGUOUS.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_contiguous", rc);
        }
    }

    /** MPI_Type_vector; throws {@link EmpiException} on a non-success return. */
    public static void typeVector(int a0, int a1, int a2, long a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_VECTOR.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_vector", rc);
        }
    }

    /** MPI_Type_create_hvector; throws {@link EmpiException} on a non-success return. */
    public static void typeCreateHvector(int a0, int a1, long a2, long a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_HVECTOR.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_hvector", rc);
        }
    }

    /** MPI_Type_indexed; throws {@link EmpiException} on a non-success return. */
    public static void typeIndexed(int a0, MemorySegment a1, MemorySegment a2, long a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_INDEXED.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_indexed", rc);
        }
    }

    /** MPI_Type_create_hindexed; throws {@link EmpiException} on a non-success return. */
    public static void typeCreateHindexed(int a0, MemorySegment a1, MemorySegment a2, long a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_HINDEXED.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_hindexed", rc);
        }
    }

    /** MPI_Type_create_indexed_block; throws {@link EmpiException} on a non-success return. */
    public static void typeCreateIndexedBlock(int a0, int a1, MemorySegment a2, long a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_INDEXED_BLOCK.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_indexed_block", rc);
        }
    }

    /** MPI_Type_create_struct; throws {@link EmpiException} on a non-success return. */
    public static void typeCreateStruct(int a0, MemorySegment a1, MemorySegment a2, MemorySegment a3, MemorySegment a4) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_STRUCT.invokeExact(a0, a1, a2, a3, a4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_struct", rc);
        }
    }

    /** MPI_Type_create_resized; throws {@link EmpiException} on a non-success return. */
    public static void typeCreateResized(long a0, long a1, long a2, MemorySegment a3) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_RESIZED.invokeExact(a0, a1, a2, a3);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_resized", rc);
        }
    }

    /** MPI_Type_commit; throws {@link EmpiException} on a non-success return. */
    public static void typeCommit(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_COMMIT.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_commit", rc);
        }
    }

    /** MPI_Type_free; throws {@link EmpiException} on a non-success return. */
    public static void typeFree(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_FREE.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_free", rc);
        }
    }

    /** MPI_Type_size; throws {@link EmpiException} on a non-success return. */
    public static void typeSize(long a0, MemorySegment a1) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_SIZE.invokeExact(a0, a1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_size", rc);
        }
    }

    /** MPI_Type_get_extent; throws {@link EmpiException} on a non-success return. */
    public static void typeGetExtent(long a0, MemorySegment a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_GET_EXTENT.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_get_extent", rc);
        }
    }

    /** MPI_Type_get_true_extent; throws {@link EmpiException} on a non-success return. */
    public static void typeGetTrueExtent(long a0, MemorySegment a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_GET_TRUE_EXTENT.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_get_true_extent", rc);
        }
    }

    /** MPI_Op_create; throws {@link EmpiException} on a non-success return. */
    public static void opCreate(MemorySegment a0, int a1, MemorySegment a2) {
        int rc;
        try {
            rc = (int) Rare.MH_OP_CREATE.invokeExact(a0, a1, a2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Op_create", rc);
        }
    }

    /** MPI_Op_free; throws {@link EmpiException} on a non-success return. */
    public static void opFree(MemorySegment a0) {
        int rc;
        try {
            rc = (int) Rare.MH_OP_FREE.invokeExact(a0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Op_free", rc);
        }
    }
}
