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
 *
 * <p>A wrapper's parameters carry the names of the MPI standard's C binding
 * (camel-cased, with the {@code array_of_} prefix dropped), in the same order,
 * and the Java type says how each is passed:
 * <ul>
 * <li>{@code long}: a handle by value ({@code MPI_Comm}, {@code MPI_Datatype},
 *     {@code MPI_Op}, {@code MPI_Group}, {@code MPI_Errhandler}), or an
 *     {@code MPI_Aint} where the wrapper says so;</li>
 * <li>{@code int}: a count, rank, tag, root, color, key, error code or 0/1 flag;</li>
 * <li>{@link MemorySegment}: whatever the C pointer points at: a message buffer,
 *     an array of {@code int} or {@code MPI_Aint}, {@code MPI_Status}es
 *     ({@link #allocateStatuses}), an {@code int} out-parameter, or a
 *     <em>handle slot</em>: {@link #HANDLE_BYTES} bytes holding one handle
 *     ({@link #allocateHandles}, {@link #getHandle}, {@link #setHandle}) that the
 *     call reads ({@code MPI_Cancel}), writes ({@code newcomm}, {@code request})
 *     or both ({@code MPI_Test}, the {@code _free} calls).</li>
 * </ul>
 * A wrapper documents only what its C name leaves open.
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

    /** The ABI description's {@code library.family} of MPICH and its derivatives. */
    private static final String MPICH = "mpich";
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

    /** The handle in slot {@code index} of {@code handles}, widened to {@code long}. */
    public static long getHandle(MemorySegment handles, long index) {
        return HANDLE_BYTES == 8 ? handles.getAtIndex(ValueLayout.JAVA_LONG, index)
                : handles.getAtIndex(ValueLayout.JAVA_INT, index);
    }

    /** Stores {@code handle} in slot {@code index} of {@code handles}, narrowed to the native width. */
    public static void setHandle(MemorySegment handles, long index, long handle) {
        if (HANDLE_BYTES == 8) {
            handles.setAtIndex(ValueLayout.JAVA_LONG, index, handle);
        } else {
            handles.setAtIndex(ValueLayout.JAVA_INT, index, (int) handle);
        }
    }

    /** {@code count} adjacent handle slots (at least one), e.g. an {@code array_of_requests}. */
    public static MemorySegment allocateHandles(Arena arena, int count) {
        MemorySegment seg = arena.allocate((long) HANDLE_BYTES * Math.max(1, count), 8);
        return seg;
    }

    /** Slot {@code index} of {@code handles} (from {@link #allocateHandles}): one request, as an MPI call takes it. */
    public static MemorySegment handleSlot(MemorySegment handles, long index) {
        return handles.asSlice(HANDLE_BYTES * index, HANDLE_BYTES);
    }

    /** {@code count} adjacent {@code MPI_Status}es (at least one), e.g. an {@code array_of_statuses}. */
    public static MemorySegment allocateStatuses(Arena arena, int count) {
        return arena.allocate((long) STATUS_BYTES * Math.max(1, count), 8);
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
    // Only nonblocking calls on the data path (docs/DESIGN.md §3): no blocking receive, send, wait, probe or
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
    private static final MethodHandle MH_REQUEST_GET_STATUS = DC.critical("MPI_Request_get_status", "ihpp");
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
        /**
         * The same for a predefined operation: the library's own loop, which never calls back into Java (a user
         * operation made by MPI_Op_create is an upcall, and an upcall from a critical downcall aborts the JVM).
         */
        static final MethodHandle MH_REDUCE_LOCAL_PREDEFINED = DC.critical("MPI_Reduce_local", "ippihh");
    }

    /**
     * Up to this many bytes a predefined reduction is a critical downcall: the thread-state transition of an
     * ordinary one costs as much as reducing a few doubles, on every step of a small allreduce. A longer
     * reduction could hold a safepoint up, so it goes the ordinary way.
     */
    private static final long CRITICAL_REDUCE_BYTES = 64 * 1024;

    /** Downcalls for calls a run makes a few times, if at all, bound when the first is used. */
    private static final class Rare {
        static final MethodHandle MH_FINALIZED = DC.full("MPI_Finalized", "ip");
        static final MethodHandle MH_ABORT = DC.full("MPI_Abort", "ihi");
        static final MethodHandle MH_WTICK = DC.critical("MPI_Wtick", "d");
        static final MethodHandle MH_GET_PROCESSOR_NAME = DC.full("MPI_Get_processor_name", "ipp");
        static final MethodHandle MH_GET_VERSION = DC.full("MPI_Get_version", "ipp");
        static final MethodHandle MH_GET_LIBRARY_VERSION = DC.full("MPI_Get_library_version", "ipp");
        static final MethodHandle MH_QUERY_THREAD = DC.full("MPI_Query_thread", "ip");
        static final MethodHandle MH_COMM_GET_ATTR = DC.full("MPI_Comm_get_attr", "ihipp");
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

    /**
     * MPI_Testall over {@code count} adjacent request handles and statuses. On every library it reports (throws)
     * only once no request is left active: the caller may then reuse the memory of all of them.
     *
     * @param requests {@code count} handle slots; all are set to {@link #REQUEST_NULL} once all completed
     * @param flag an {@code int} receiving 1 if all completed
     * @param statuses {@code count} statuses, filled once all completed (used as scratch before)
     */
    public static void testall(int count, MemorySegment requests, MemorySegment flag, MemorySegment statuses) {
        if (TESTALL_REPORTS_EARLY && !allComplete(count, requests, flag, statuses)) {
            flag.set(ValueLayout.JAVA_INT, 0, 0);
            return;
        }
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

    /**
     * MPICH 4.0's MPI_Testall returns MPI_ERR_IN_STATUS as soon as one request has failed: it frees that request and
     * leaves the others active (status MPI_ERR_PENDING), and a later MPI_Testall over the same slots no longer reports
     * the failure. Open MPI 4.1 reports only once every request has completed. Measured with
     * src/test/c/mpich/testall.c (a truncated receive beside one whose message comes later).
     */
    private static final boolean TESTALL_REPORTS_EARLY = MPICH.equals(ABI.family());

    /**
     * Whether every request of the slots has completed, asked with MPI_Request_get_status, which frees nothing (so
     * a failed one keeps its error for the MPI_Testall that follows). A request whose get_status returns an error
     * has completed with it (MPICH returns the request's error there).
     */
    private static boolean allComplete(int count, MemorySegment requests, MemorySegment flag, MemorySegment statuses) {
        for (int i = 0; i < count; i++) {
            int rc;
            try {
                rc = (int) MH_REQUEST_GET_STATUS.invokeExact(getHandle(requests, i), flag,
                        statuses.asSlice((long) i * STATUS_BYTES, STATUS_BYTES));
            } catch (Throwable t) {
                throw rethrow(t);
            }
            if (rc == SUCCESS && flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * MPI_Comm_idup: the nonblocking duplicate of {@code comm}.
     *
     * @param comm the communicator to duplicate, by value
     * @param newcomm a handle slot receiving the new communicator; valid only once {@code request} completes
     * @param request a handle slot receiving the request to test
     */
    public static void commIdup(long comm, MemorySegment newcomm, MemorySegment request) {
        int rc;
        try {
            rc = (int) MH_COMM_IDUP.invokeExact(comm, newcomm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_idup", rc);
        }
    }

    /**
     * MPI_Init_thread.
     *
     * @param argc pointer to the C {@code argc}, or {@link MemorySegment#NULL}
     * @param argv pointer to the C {@code argv}, or {@link MemorySegment#NULL}
     * @param required the thread level asked for, e.g. {@link #THREAD_MULTIPLE}
     * @param provided an {@code int} receiving the thread level granted
     */
    public static void initThread(MemorySegment argc, MemorySegment argv, int required, MemorySegment provided) {
        int rc;
        try {
            rc = (int) MH_INIT_THREAD.invokeExact(argc, argv, required, provided);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Init_thread", rc);
        }
    }

    /** MPI_Initialized: writes 1 to the {@code int} {@code flag} once MPI_Init has run. */
    public static void initialized(MemorySegment flag) {
        int rc;
        try {
            rc = (int) Collectives.MH_INITIALIZED.invokeExact(flag);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Initialized", rc);
        }
    }

    /** MPI_Finalized: writes 1 to the {@code int} {@code flag} once MPI_Finalize has run. */
    public static void finalized(MemorySegment flag) {
        int rc;
        try {
            rc = (int) Rare.MH_FINALIZED.invokeExact(flag);
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

    /**
     * MPI_Finalize, given up after {@code boundMillis} where the native one can wait forever on a peer that died
     * during it ({@link #finalizeSurvivesDeadPeers} false: MPICH). There it runs on a daemon thread while the caller
     * waits (the MPI calls stay serialized: the caller makes none meanwhile); when the bound passes, the caller goes
     * on as if it had returned and the process can exit with the thread still spinning in the library. Elsewhere it
     * is {@link #finalizeMpi()}. Returns whether the native Finalize returned.
     *
     * <p>For a job whose launcher takes a rank's end without MPI_Finalize as a clean one (fthp-run's proxy library
     * under mpiexec.hydra); plain hydra would end the job instead.
     */
    public static boolean finalizeMpiWithin(long boundMillis) {
        if (finalizeSurvivesDeadPeers()) {
            finalizeMpi();
            return true;
        }
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failed =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread finalizer = new Thread(() -> {
            try {
                finalizeMpi();
            } catch (RuntimeException e) {
                failed.set(e);
            }
        }, "fthp-native-finalize");
        finalizer.setDaemon(true);
        finalizer.start();
        try {
            finalizer.join(boundMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (finalizer.isAlive()) {
            return false;
        }
        if (failed.get() != null) {
            throw failed.get();
        }
        return true;
    }

    /** MPI_Abort: ends the processes of {@code comm} (in practice the whole job) with {@code errorcode}. */
    public static void abort(long comm, int errorcode) {
        int rc;
        try {
            rc = (int) Rare.MH_ABORT.invokeExact(comm, errorcode);
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

    /**
     * MPI_Get_processor_name.
     *
     * @param name at least {@link #MAX_PROCESSOR_NAME} bytes, receiving the name
     * @param resultlen an {@code int} receiving the length of the name
     */
    public static void getProcessorName(MemorySegment name, MemorySegment resultlen) {
        int rc;
        try {
            rc = (int) Rare.MH_GET_PROCESSOR_NAME.invokeExact(name, resultlen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_processor_name", rc);
        }
    }

    /**
     * MPI_Error_string; {@link #errorString(int)} is the convenient form.
     *
     * @param string at least {@link #MAX_ERROR_STRING} bytes, receiving the text
     * @param resultlen an {@code int} receiving the length of the text
     */
    public static void errorString(int errorcode, MemorySegment string, MemorySegment resultlen) {
        int rc;
        try {
            rc = (int) MH_ERROR_STRING.invokeExact(errorcode, string, resultlen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Error_string", rc);
        }
    }

    /**
     * MPI_Error_class: writes the class of {@code errorcode} to the {@code int} {@code errorclass};
     * {@link #errorClassOf(int)} is the convenient form.
     */
    public static void errorClass(int errorcode, MemorySegment errorclass) {
        int rc;
        try {
            rc = (int) MH_ERROR_CLASS.invokeExact(errorcode, errorclass);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Error_class", rc);
        }
    }

    /** MPI_Get_version: the standard's version and subversion, each written to an {@code int}. */
    public static void getVersion(MemorySegment version, MemorySegment subversion) {
        int rc;
        try {
            rc = (int) Rare.MH_GET_VERSION.invokeExact(version, subversion);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_version", rc);
        }
    }

    /**
     * MPI_Get_library_version.
     *
     * @param version at least MPI_MAX_LIBRARY_VERSION_STRING bytes, receiving the text
     * @param resultlen an {@code int} receiving the length of the text
     */
    public static void getLibraryVersion(MemorySegment version, MemorySegment resultlen) {
        int rc;
        try {
            rc = (int) Rare.MH_GET_LIBRARY_VERSION.invokeExact(version, resultlen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_library_version", rc);
        }
    }

    /** MPI_Query_thread: writes the thread level granted to the {@code int} {@code provided}. */
    public static void queryThread(MemorySegment provided) {
        int rc;
        try {
            rc = (int) Rare.MH_QUERY_THREAD.invokeExact(provided);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Query_thread", rc);
        }
    }

    /**
     * MPI_Is_thread_main: writes 1 to the {@code int} {@code flag} if the caller is the thread that initialised MPI.
     */
    public static void isThreadMain(MemorySegment flag) {
        int rc;
        try {
            rc = (int) Collectives.MH_IS_THREAD_MAIN.invokeExact(flag);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Is_thread_main", rc);
        }
    }

    /**
     * The largest tag the library accepts: COMM_WORLD's {@code MPI_TAG_UB} attribute (MPI_Comm_get_attr), which
     * exists only after MPI_Init, so the ABI probe cannot record it. 2^31-1 on Open MPI 4.1, 2^28-1 on MPICH 4.0
     * over UCX; the standard promises at least 32767.
     */
    public static int tagUpperBound() {
        int rc;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment value = a.allocate(ValueLayout.ADDRESS);
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            try {
                rc = (int) Rare.MH_COMM_GET_ATTR.invokeExact(COMM_WORLD, constant("MPI_TAG_UB"), value, flag);
            } catch (Throwable t) {
                throw rethrow(t);
            }
            if (rc != SUCCESS) {
                throw failure("MPI_Comm_get_attr(MPI_TAG_UB)", rc);
            }
            if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
                throw new EmpiException("MPI_Comm_get_attr: MPI_COMM_WORLD has no MPI_TAG_UB attribute");
            }
            // a predefined attribute's value is a pointer to the int
            return value.get(ValueLayout.ADDRESS, 0).reinterpret(Integer.BYTES).get(ValueLayout.JAVA_INT, 0);
        }
    }

    /**
     * Whether the native library takes its internal locks in every call at any thread level above
     * {@code MPI_THREAD_SINGLE}. Open MPI 4.1 does (ompi_mpi_init.c turns OPAL's thread support on for every level but
     * SINGLE, FUNNELED included): a lock and an unlock around its request, progress and free-list work, which
     * doubles the native cost of a small send and receive (a byte[] pair to itself over the bare downcalls, SINGLE
     * against FUNNELED, SERIALIZED or MULTIPLE). Its SINGLE mode keeps no per-thread state, so a
     * caller that lets one thread at a time in, behind a lock that also orders their memory, may call it from
     * several threads at SINGLE. MPICH 4.0 locks only at MPI_THREAD_MULTIPLE: SERIALIZED costs nothing there.
     */
    public static boolean locksAboveThreadSingle() {
        return !MPICH.equals(ABI.family());
    }

    /**
     * Whether the native MPI_Finalize returns after a process of the job has died. Open MPI 4.1's does. MPICH
     * 4.0's (ch4:ucx) disconnects from every peer and waits for each disconnection to complete; its endpoints have
     * no error handling, so the one to a dead peer never completes and Finalize spins forever (docs/notes/mpich.md
     * §3): there a survivor must leave without it.
     */
    public static boolean finalizeSurvivesDeadPeers() {
        return !MPICH.equals(ABI.family());
    }

    /** MPI_Comm_size: writes the size of {@code comm} to the {@code int} {@code size}. */
    public static void commSize(long comm, MemorySegment size) {
        int rc;
        try {
            rc = (int) MH_COMM_SIZE.invokeExact(comm, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_size", rc);
        }
    }

    /** MPI_Comm_rank: writes the caller's rank in {@code comm} to the {@code int} {@code rank}. */
    public static void commRank(long comm, MemorySegment rank) {
        int rc;
        try {
            rc = (int) MH_COMM_RANK.invokeExact(comm, rank);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_rank", rc);
        }
    }

    /** MPI_Comm_dup: writes the duplicate's handle to {@code newcomm}, a handle slot. */
    public static void commDup(long comm, MemorySegment newcomm) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_DUP.invokeExact(comm, newcomm);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_dup", rc);
        }
    }

    /**
     * MPI_Comm_split: writes the new communicator's handle (or {@link #COMM_NULL} for {@link #UNDEFINED} {@code color})
     * to {@code newcomm}, a handle slot.
     */
    public static void commSplit(long comm, int color, int key, MemorySegment newcomm) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_SPLIT.invokeExact(comm, color, key, newcomm);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_split", rc);
        }
    }

    /**
     * MPI_Comm_create: collective over {@code comm}; {@code group} is a handle by value, and the new communicator's
     * handle (or {@link #COMM_NULL} outside the group) goes to {@code newcomm}, a handle slot.
     */
    public static void commCreate(long comm, long group, MemorySegment newcomm) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_CREATE.invokeExact(comm, group, newcomm);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_create", rc);
        }
    }

    /**
     * MPI_Comm_create_group: collective over the members of {@code group} only; the new communicator's handle goes to
     * {@code newcomm}, a handle slot.
     */
    public static void commCreateGroup(long comm, long group, int tag, MemorySegment newcomm) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_CREATE_GROUP.invokeExact(comm, group, tag, newcomm);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_create_group", rc);
        }
    }

    /** MPI_Comm_free: {@code comm} is a handle slot holding the handle, which the call sets to {@link #COMM_NULL}. */
    public static void commFree(MemorySegment comm) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_FREE.invokeExact(comm);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_free", rc);
        }
    }

    /** MPI_Comm_group: writes the handle of the group of {@code comm} to {@code group}, a handle slot. */
    public static void commGroup(long comm, MemorySegment group) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_GROUP.invokeExact(comm, group);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_group", rc);
        }
    }

    /**
     * MPI_Comm_remote_group: writes the handle of the remote group of the intercommunicator {@code comm} to
     * {@code group}, a handle slot.
     */
    public static void commRemoteGroup(long comm, MemorySegment group) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_REMOTE_GROUP.invokeExact(comm, group);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_remote_group", rc);
        }
    }

    /** MPI_Comm_remote_size: writes the size of the remote group of {@code comm} to the {@code int} {@code size}. */
    public static void commRemoteSize(long comm, MemorySegment size) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_REMOTE_SIZE.invokeExact(comm, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_remote_size", rc);
        }
    }

    /** MPI_Comm_test_inter: writes 1 to the {@code int} {@code flag} if {@code comm} is an intercommunicator. */
    public static void commTestInter(long comm, MemorySegment flag) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_TEST_INTER.invokeExact(comm, flag);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_test_inter", rc);
        }
    }

    /**
     * MPI_Comm_compare: writes MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL to the {@code int} {@code result}.
     */
    public static void commCompare(long comm1, long comm2, MemorySegment result) {
        int rc;
        try {
            rc = (int) Comms.MH_COMM_COMPARE.invokeExact(comm1, comm2, result);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_compare", rc);
        }
    }

    /** MPI_Comm_set_errhandler: both handles by value. */
    public static void commSetErrhandler(long comm, long errhandler) {
        int rc;
        try {
            rc = (int) MH_COMM_SET_ERRHANDLER.invokeExact(comm, errhandler);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Comm_set_errhandler", rc);
        }
    }

    /**
     * MPI_Intercomm_create (blocking).
     *
     * @param localComm the local intracommunicator, by value
     * @param localLeader rank of the local leader in {@code localComm}
     * @param peerComm the communicator joining the two leaders, by value; significant at the leaders only
     * @param remoteLeader rank of the remote leader in {@code peerComm}
     * @param tag the tag the leaders exchange on over {@code peerComm}
     * @param newintercomm a handle slot receiving the intercommunicator
     */
    public static void intercommCreate(long localComm, int localLeader, long peerComm, int remoteLeader, int tag,
            MemorySegment newintercomm) {
        int rc;
        try {
            rc = (int) Collectives.MH_INTERCOMM_CREATE.invokeExact(localComm, localLeader, peerComm, remoteLeader,
                    tag, newintercomm);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Intercomm_create", rc);
        }
    }

    /**
     * MPI_Intercomm_merge: a group passing {@code high} = 1 is ordered after the one passing 0; the merged
     * intracommunicator's handle goes to {@code newintracomm}, a handle slot.
     */
    public static void intercommMerge(long intercomm, int high, MemorySegment newintracomm) {
        int rc;
        try {
            rc = (int) Collectives.MH_INTERCOMM_MERGE.invokeExact(intercomm, high, newintracomm);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Intercomm_merge", rc);
        }
    }

    /** MPI_Group_size: writes the size of {@code group} to the {@code int} {@code size}. */
    public static void groupSize(long group, MemorySegment size) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_SIZE.invokeExact(group, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_size", rc);
        }
    }

    /**
     * MPI_Group_rank: writes the caller's rank in {@code group}, or {@link #UNDEFINED}, to the {@code int}
     * {@code rank}.
     */
    public static void groupRank(long group, MemorySegment rank) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_RANK.invokeExact(group, rank);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_rank", rc);
        }
    }

    /**
     * MPI_Group_incl: {@code ranks} holds {@code n} {@code int} ranks of {@code group}; the new group's handle goes to
     * {@code newgroup}, a handle slot.
     */
    public static void groupIncl(long group, int n, MemorySegment ranks, MemorySegment newgroup) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_INCL.invokeExact(group, n, ranks, newgroup);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_incl", rc);
        }
    }

    /**
     * MPI_Group_free: {@code group} is a handle slot holding the handle, which the call sets to {@link #GROUP_NULL}.
     */
    public static void groupFree(MemorySegment group) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_FREE.invokeExact(group);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_free", rc);
        }
    }

    /**
     * MPI_Group_translate_ranks: for the {@code n} {@code int} ranks of {@code group1} in {@code ranks1}, writes their
     * ranks in {@code group2} (or {@link #UNDEFINED}) to the {@code n} {@code int}s of {@code ranks2}.
     */
    public static void groupTranslateRanks(long group1, int n, MemorySegment ranks1, long group2,
            MemorySegment ranks2) {
        int rc;
        try {
            rc = (int) Comms.MH_GROUP_TRANSLATE_RANKS.invokeExact(group1, n, ranks1, group2, ranks2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Group_translate_ranks", rc);
        }
    }

    /** MPI_Isend: {@code datatype} and {@code comm} by value; the request goes to {@code request}, a handle slot. */
    public static void isend(MemorySegment buf, int count, long datatype, int dest, int tag, long comm,
            MemorySegment request) {
        int rc;
        try {
            rc = (int) MH_ISEND.invokeExact(buf, count, datatype, dest, tag, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Isend", rc);
        }
    }

    /** MPI_Issend: {@code datatype} and {@code comm} by value; the request goes to {@code request}, a handle slot. */
    public static void issend(MemorySegment buf, int count, long datatype, int dest, int tag, long comm,
            MemorySegment request) {
        int rc;
        try {
            rc = (int) MH_ISSEND.invokeExact(buf, count, datatype, dest, tag, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Issend", rc);
        }
    }

    /** MPI_Irecv: {@code datatype} and {@code comm} by value; the request goes to {@code request}, a handle slot. */
    public static void irecv(MemorySegment buf, int count, long datatype, int source, int tag, long comm,
            MemorySegment request) {
        int rc;
        try {
            rc = (int) MH_IRECV.invokeExact(buf, count, datatype, source, tag, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Irecv", rc);
        }
    }

    /**
     * MPI_Iprobe: writes 1 to the {@code int} {@code flag} if a matching message is pending, and then fills
     * {@code status} (one {@link #STATUS_BYTES} status).
     */
    public static void iprobe(int source, int tag, long comm, MemorySegment flag, MemorySegment status) {
        int rc;
        try {
            rc = (int) MH_IPROBE.invokeExact(source, tag, comm, flag, status);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iprobe", rc);
        }
    }

    /**
     * MPI_Improbe: like {@link #iprobe} but also takes the message off the queue: on a match, its handle goes to
     * {@code message}, a handle slot, for {@link #imrecv}.
     */
    public static void improbe(int source, int tag, long comm, MemorySegment flag, MemorySegment message,
            MemorySegment status) {
        int rc;
        try {
            rc = (int) MH_IMPROBE.invokeExact(source, tag, comm, flag, message, status);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Improbe", rc);
        }
    }

    /**
     * MPI_Imrecv.
     *
     * @param message a handle slot holding the handle from {@link #improbe}; the call sets it to {@link #MESSAGE_NULL}
     * @param request a handle slot receiving the request
     */
    public static void imrecv(MemorySegment buf, int count, long datatype, MemorySegment message,
            MemorySegment request) {
        int rc;
        try {
            rc = (int) MH_IMRECV.invokeExact(buf, count, datatype, message, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Imrecv", rc);
        }
    }

    /**
     * MPI_Test.
     *
     * @param request a handle slot holding the request; set to {@link #REQUEST_NULL} when it completes
     * @param flag an {@code int} receiving 1 if the request completed
     * @param status one {@link #STATUS_BYTES} status, filled when the request completed
     */
    public static void test(MemorySegment request, MemorySegment flag, MemorySegment status) {
        int rc;
        try {
            rc = (int) MH_TEST.invokeExact(request, flag, status);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Test", rc);
        }
    }

    /**
     * MPI_Testsome over {@code incount} adjacent request handles.
     *
     * @param requests {@code incount} handle slots; each completed one is set to {@link #REQUEST_NULL}
     * @param outcount an {@code int} receiving how many completed ({@link #UNDEFINED} if none was active)
     * @param indices {@code incount} {@code int}s, the first {@code outcount} receiving the completed indices
     * @param statuses {@code incount} statuses, the first {@code outcount} filled
     */
    public static void testsome(int incount, MemorySegment requests, MemorySegment outcount, MemorySegment indices,
            MemorySegment statuses) {
        int rc;
        try {
            rc = (int) Rare.MH_TESTSOME.invokeExact(incount, requests, outcount, indices, statuses);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Testsome", rc);
        }
    }

    /** MPI_Cancel: {@code request} is a handle slot holding the request, which still has to be completed (tested). */
    public static void cancel(MemorySegment request) {
        int rc;
        try {
            rc = (int) MH_CANCEL.invokeExact(request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Cancel", rc);
        }
    }

    /**
     * MPI_Request_free: {@code request} is a handle slot holding the request, which the call sets to
     * {@link #REQUEST_NULL}.
     */
    public static void requestFree(MemorySegment request) {
        int rc;
        try {
            rc = (int) Rare.MH_REQUEST_FREE.invokeExact(request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Request_free", rc);
        }
    }

    /**
     * MPI_Get_count: writes to the {@code int} {@code count} how many {@code datatype} items the message of
     * {@code status} (one status, not an array) held, or {@link #UNDEFINED}.
     */
    public static void getCount(MemorySegment status, long datatype, MemorySegment count) {
        int rc;
        try {
            rc = (int) MH_GET_COUNT.invokeExact(status, datatype, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Get_count", rc);
        }
    }

    /** MPI_Test_cancelled: writes 1 to the {@code int} {@code flag} if the request of {@code status} was cancelled. */
    public static void testCancelled(MemorySegment status, MemorySegment flag) {
        int rc;
        try {
            rc = (int) MH_TEST_CANCELLED.invokeExact(status, flag);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Test_cancelled", rc);
        }
    }

    /** MPI_Ibarrier: the request goes to {@code request}, a handle slot. */
    public static void ibarrier(long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IBARRIER.invokeExact(comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ibarrier", rc);
        }
    }

    /**
     * MPICH 4.0's MPI_Ibcast on an intercommunicator loses the data when the root is not rank 0 of its group: the
     * receiving group's rank 0 gets it and then broadcasts within its group from local rank {@code root} instead of
     * 0 (its flat schedule, src/mpi/coll/ibcast/ibcast_inter_sched_flat.c; measured with
     * src/test/c/mpich/interroot.c). Blocking MPI_Bcast and MPI_Iscatter are right, so there {@link #ibcast} is an
     * MPI_Iscatter of a type of extent 0, which hands every receiver the same {@code count} elements.
     */
    private static final boolean IBCAST_INTER_BROKEN = MPICH.equals(ABI.family()) && ABI.version().startsWith("4.0.");

    /** MPI_Ibcast (on MPICH 4.0 over an intercommunicator: see {@link #IBCAST_INTER_BROKEN}). */
    public static void ibcast(MemorySegment buffer, int count, long datatype, int root, long comm,
            MemorySegment request) {
        if (IBCAST_INTER_BROKEN && isInter(comm)) {
            ibcastByScatter(buffer, count, datatype, root, comm, request);
            return;
        }
        int rc;
        try {
            rc = (int) Collectives.MH_IBCAST.invokeExact(buffer, count, datatype, root, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ibcast", rc);
        }
    }

    private static boolean isInter(long comm) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            commTestInter(comm, flag);
            return flag.get(ValueLayout.JAVA_INT, 0) != 0;
        }
    }

    /**
     * An intercommunicator broadcast as MPI_Iscatter: the root sends one element of {@code count} × {@code datatype}
     * resized to extent 0, so every receiver's piece starts at {@code buffer}; the receivers take {@code count}
     * {@code datatype}s. The type is freed at once: MPI keeps it for the pending operation.
     */
    private static void ibcastByScatter(MemorySegment buffer, int count, long datatype, int root, long comm,
            MemorySegment request) {
        if (root != ROOT) {
            // a receiver (root: the root's rank in the other group), or the root's group's others (MPI_PROC_NULL)
            iscatter(MemorySegment.NULL, 0, datatype, root == PROC_NULL ? MemorySegment.NULL : buffer,
                    root == PROC_NULL ? 0 : count, datatype, root, comm, request);
            return;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment block = allocateHandles(a, 1);
            MemorySegment repeated = allocateHandles(a, 1);
            typeContiguous(count, datatype, block);
            typeCreateResized(getHandle(block, 0), 0, 0, repeated);
            typeFree(block);
            typeCommit(repeated);
            try {
                iscatter(buffer, 1, getHandle(repeated, 0), MemorySegment.NULL, 0, datatype, ROOT, comm, request);
            } finally {
                typeFree(repeated);
            }
        }
    }

    /** MPI_Ireduce. */
    public static void ireduce(MemorySegment sendbuf, MemorySegment recvbuf, int count, long datatype, long op,
            int root, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IREDUCE.invokeExact(sendbuf, recvbuf, count, datatype, op, root, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ireduce", rc);
        }
    }

    /** MPI_Iallreduce. */
    public static void iallreduce(MemorySegment sendbuf, MemorySegment recvbuf, int count, long datatype, long op,
            long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLREDUCE.invokeExact(sendbuf, recvbuf, count, datatype, op, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iallreduce", rc);
        }
    }

    /** MPI_Igather. */
    public static void igather(MemorySegment sendbuf, int sendcount, long sendtype, MemorySegment recvbuf,
            int recvcount, long recvtype, int root, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IGATHER.invokeExact(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    root, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Igather", rc);
        }
    }

    /** MPI_Igatherv: {@code recvcounts} and {@code displs} are arrays of one {@code int} per rank. */
    public static void igatherv(MemorySegment sendbuf, int sendcount, long sendtype, MemorySegment recvbuf,
            MemorySegment recvcounts, MemorySegment displs, long recvtype, int root, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IGATHERV.invokeExact(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, root, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Igatherv", rc);
        }
    }

    /** MPI_Iscatter. */
    public static void iscatter(MemorySegment sendbuf, int sendcount, long sendtype, MemorySegment recvbuf,
            int recvcount, long recvtype, int root, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_ISCATTER.invokeExact(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    root, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iscatter", rc);
        }
    }

    /** MPI_Iscatterv: {@code sendcounts} and {@code displs} are arrays of one {@code int} per rank. */
    public static void iscatterv(MemorySegment sendbuf, MemorySegment sendcounts, MemorySegment displs, long sendtype,
            MemorySegment recvbuf, int recvcount, long recvtype, int root, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_ISCATTERV.invokeExact(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                    recvtype, root, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iscatterv", rc);
        }
    }

    /** MPI_Iallgather. */
    public static void iallgather(MemorySegment sendbuf, int sendcount, long sendtype, MemorySegment recvbuf,
            int recvcount, long recvtype, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLGATHER.invokeExact(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iallgather", rc);
        }
    }

    /** MPI_Iallgatherv: {@code recvcounts} and {@code displs} are arrays of one {@code int} per rank. */
    public static void iallgatherv(MemorySegment sendbuf, int sendcount, long sendtype, MemorySegment recvbuf,
            MemorySegment recvcounts, MemorySegment displs, long recvtype, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLGATHERV.invokeExact(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iallgatherv", rc);
        }
    }

    /** MPI_Ialltoall. */
    public static void ialltoall(MemorySegment sendbuf, int sendcount, long sendtype, MemorySegment recvbuf,
            int recvcount, long recvtype, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLTOALL.invokeExact(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ialltoall", rc);
        }
    }

    /** MPI_Ialltoallv: the counts and displacements are arrays of one {@code int} per rank. */
    public static void ialltoallv(MemorySegment sendbuf, MemorySegment sendcounts, MemorySegment sdispls,
            long sendtype, MemorySegment recvbuf, MemorySegment recvcounts, MemorySegment rdispls, long recvtype,
            long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IALLTOALLV.invokeExact(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                    recvcounts, rdispls, recvtype, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ialltoallv", rc);
        }
    }

    /** MPI_Ireduce_scatter: {@code recvcounts} is an array of one {@code int} per rank. */
    public static void ireduceScatter(MemorySegment sendbuf, MemorySegment recvbuf, MemorySegment recvcounts,
            long datatype, long op, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IREDUCE_SCATTER.invokeExact(sendbuf, recvbuf, recvcounts, datatype, op, comm,
                    request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ireduce_scatter", rc);
        }
    }

    /** MPI_Ireduce_scatter_block. */
    public static void ireduceScatterBlock(MemorySegment sendbuf, MemorySegment recvbuf, int recvcount, long datatype,
            long op, long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IREDUCE_SCATTER_BLOCK.invokeExact(sendbuf, recvbuf, recvcount, datatype, op,
                    comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Ireduce_scatter_block", rc);
        }
    }

    /** MPI_Iscan. */
    public static void iscan(MemorySegment sendbuf, MemorySegment recvbuf, int count, long datatype, long op,
            long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_ISCAN.invokeExact(sendbuf, recvbuf, count, datatype, op, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iscan", rc);
        }
    }

    /** MPI_Iexscan. */
    public static void iexscan(MemorySegment sendbuf, MemorySegment recvbuf, int count, long datatype, long op,
            long comm, MemorySegment request) {
        int rc;
        try {
            rc = (int) Collectives.MH_IEXSCAN.invokeExact(sendbuf, recvbuf, count, datatype, op, comm, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Iexscan", rc);
        }
    }

    /**
     * MPI_Reduce_local with a predefined operation ({@code MPI_SUM}, {@code MPI_MAX}, ...), never one made by
     * {@link #opCreate}: a short vector is reduced by a critical downcall, which cannot call back into Java.
     */
    public static void reduceLocalPredefined(MemorySegment inbuf, MemorySegment inoutbuf, int count, long datatype,
                                             long op) {
        if (inoutbuf.byteSize() > CRITICAL_REDUCE_BYTES) {
            reduceLocal(inbuf, inoutbuf, count, datatype, op);
            return;
        }
        int rc;
        try {
            rc = (int) Collectives.MH_REDUCE_LOCAL_PREDEFINED.invokeExact(inbuf, inoutbuf, count, datatype, op);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Reduce_local", rc);
        }
    }

    /** MPI_Reduce_local: {@code inoutbuf[i] = inbuf[i] op inoutbuf[i]} for {@code count} items; handles by value. */
    public static void reduceLocal(MemorySegment inbuf, MemorySegment inoutbuf, int count, long datatype, long op) {
        int rc;
        try {
            rc = (int) Collectives.MH_REDUCE_LOCAL.invokeExact(inbuf, inoutbuf, count, datatype, op);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Reduce_local", rc);
        }
    }

    /**
     * MPI_Type_contiguous: the new type's handle goes to {@code newtype}, a handle slot; it needs {@link #typeCommit}
     * before use.
     */
    public static void typeContiguous(int count, long oldtype, MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CONTIGUOUS.invokeExact(count, oldtype, newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_contiguous", rc);
        }
    }

    /**
     * MPI_Type_vector: {@code stride} counts extents of {@code oldtype}; the new type's handle goes to {@code newtype},
     * a handle slot; it needs {@link #typeCommit} before use.
     */
    public static void typeVector(int count, int blocklength, int stride, long oldtype, MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_VECTOR.invokeExact(count, blocklength, stride, oldtype, newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_vector", rc);
        }
    }

    /**
     * MPI_Type_create_hvector: {@code stride} is in bytes (MPI_Aint); the new type's handle goes to {@code newtype}, a
     * handle slot; it needs {@link #typeCommit} before use.
     */
    public static void typeCreateHvector(int count, int blocklength, long stride, long oldtype, MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_HVECTOR.invokeExact(count, blocklength, stride, oldtype, newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_hvector", rc);
        }
    }

    /**
     * MPI_Type_indexed: {@code blocklengths} and {@code displacements} hold {@code count} {@code int}s, the
     * displacements in extents of {@code oldtype}; the new type's handle goes to {@code newtype}, a handle slot; it
     * needs {@link #typeCommit} before use.
     */
    public static void typeIndexed(int count, MemorySegment blocklengths, MemorySegment displacements, long oldtype,
            MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_INDEXED.invokeExact(count, blocklengths, displacements, oldtype, newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_indexed", rc);
        }
    }

    /**
     * MPI_Type_create_hindexed: {@code blocklengths} holds {@code count} {@code int}s, {@code displacements}
     * {@code count} byte offsets as MPI_Aint (8 bytes each); the new type's handle goes to {@code newtype}, a handle
     * slot; it needs {@link #typeCommit} before use.
     */
    public static void typeCreateHindexed(int count, MemorySegment blocklengths, MemorySegment displacements,
            long oldtype, MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_HINDEXED.invokeExact(count, blocklengths, displacements, oldtype, newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_hindexed", rc);
        }
    }

    /**
     * MPI_Type_create_indexed_block: {@code displacements} holds {@code count} {@code int}s in extents of
     * {@code oldtype}; the new type's handle goes to {@code newtype}, a handle slot; it needs {@link #typeCommit}
     * before use.
     */
    public static void typeCreateIndexedBlock(int count, int blocklength, MemorySegment displacements, long oldtype,
            MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_INDEXED_BLOCK.invokeExact(count, blocklength, displacements, oldtype,
                    newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_indexed_block", rc);
        }
    }

    /**
     * MPI_Type_create_struct: {@code blocklengths} holds {@code count} {@code int}s, {@code displacements}
     * {@code count} byte offsets as MPI_Aint, {@code types} {@code count} handle slots; the new
     * type's handle goes to {@code newtype}, a handle slot; it needs {@link #typeCommit} before use.
     */
    public static void typeCreateStruct(int count, MemorySegment blocklengths, MemorySegment displacements,
            MemorySegment types, MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_STRUCT.invokeExact(count, blocklengths, displacements, types, newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_struct", rc);
        }
    }

    /**
     * MPI_Type_create_resized: {@code lb} and {@code extent} in bytes (MPI_Aint); the new type's handle goes to
     * {@code newtype}, a handle slot; it needs {@link #typeCommit} before use.
     */
    public static void typeCreateResized(long oldtype, long lb, long extent, MemorySegment newtype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_CREATE_RESIZED.invokeExact(oldtype, lb, extent, newtype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_create_resized", rc);
        }
    }

    /** MPI_Type_commit: {@code datatype} is a handle slot holding the handle. */
    public static void typeCommit(MemorySegment datatype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_COMMIT.invokeExact(datatype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_commit", rc);
        }
    }

    /**
     * MPI_Type_free: {@code datatype} is a handle slot holding the handle, which the call sets to
     * {@link #DATATYPE_NULL}.
     */
    public static void typeFree(MemorySegment datatype) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_FREE.invokeExact(datatype);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_free", rc);
        }
    }

    /** MPI_Type_size: writes the bytes of data in one {@code datatype} to the {@code int} {@code size}. */
    public static void typeSize(long datatype, MemorySegment size) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_SIZE.invokeExact(datatype, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_size", rc);
        }
    }

    /**
     * MPI_Type_get_extent: writes the lower bound and extent of {@code datatype} to {@code lb} and {@code extent}, each
     * an MPI_Aint (8 bytes).
     */
    public static void typeGetExtent(long datatype, MemorySegment lb, MemorySegment extent) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_GET_EXTENT.invokeExact(datatype, lb, extent);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_get_extent", rc);
        }
    }

    /**
     * MPI_Type_get_true_extent: writes the true lower bound and extent of {@code datatype} to {@code trueLb} and
     * {@code trueExtent}, each an MPI_Aint (8 bytes).
     */
    public static void typeGetTrueExtent(long datatype, MemorySegment trueLb, MemorySegment trueExtent) {
        int rc;
        try {
            rc = (int) Types.MH_TYPE_GET_TRUE_EXTENT.invokeExact(datatype, trueLb, trueExtent);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Type_get_true_extent", rc);
        }
    }

    /**
     * MPI_Op_create; {@link UserOp} is the convenient form.
     *
     * @param userFn address of an MPI_User_function (an upcall stub)
     * @param commute 1 if the operation commutes, else 0
     * @param op a handle slot receiving the operation
     */
    public static void opCreate(MemorySegment userFn, int commute, MemorySegment op) {
        int rc;
        try {
            rc = (int) Rare.MH_OP_CREATE.invokeExact(userFn, commute, op);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Op_create", rc);
        }
    }

    /** MPI_Op_free: {@code op} is a handle slot holding the handle, which the call sets to {@link #OP_NULL}. */
    public static void opFree(MemorySegment op) {
        int rc;
        try {
            rc = (int) Rare.MH_OP_FREE.invokeExact(op);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != SUCCESS) {
            throw failure("MPI_Op_free", rc);
        }
    }
}
