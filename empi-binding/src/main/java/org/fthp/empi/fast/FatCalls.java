package org.fthp.empi.fast;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;

/**
 * The same fat calls as {@link JniCalls}, reached by FFM downcalls to {@code empi_fastpath.c}'s plain C symbols:
 * one downcall posts and tests, the test's flag is the result instead of a cell read back, the status of a
 * receive comes back as one long. Measures how much of FFM's cold cost is the number of downcalls and segment
 * accesses rather than FFM itself. Results as for {@link JniCalls}.
 */
public final class FatCalls {

    private static final MethodHandle ISEND_TEST;
    private static final MethodHandle IRECV_TEST;
    private static final MethodHandle TEST;
    private static final MethodHandle STATUS_WORD;

    /** Whether the library loaded; false where there is no compiler wrapper or the build failed. */
    public static final boolean AVAILABLE;

    static {
        MethodHandle isend = null, irecv = null, test = null, word = null;
        boolean ok = false;
        try {
            long ignored = Empi.COMM_WORLD; // EMPI's library first, opened RTLD_GLOBAL
            SymbolLookup lib = SymbolLookup.libraryLookup(FastPathLibrary.path(), Arena.global());
            Linker linker = Linker.nativeLinker();
            Linker.Option critical = Linker.Option.critical(false);
            FunctionDescriptor post = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
            isend = linker.downcallHandle(lib.find("fthp_fp_isend_test").orElseThrow(), post, critical);
            irecv = linker.downcallHandle(lib.find("fthp_fp_irecv_test").orElseThrow(), post, critical);
            test = linker.downcallHandle(lib.find("fthp_fp_test").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS), critical);
            word = linker.downcallHandle(lib.find("fthp_fp_status_word").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS), critical);
            FunctionDescriptor size = FunctionDescriptor.of(ValueLayout.JAVA_INT);
            int requestBytes = (int) linker.downcallHandle(lib.find("fthp_fp_request_bytes").orElseThrow(), size)
                    .invokeExact();
            int statusBytes = (int) linker.downcallHandle(lib.find("fthp_fp_status_bytes").orElseThrow(), size)
                    .invokeExact();
            ok = requestBytes == Empi.HANDLE_BYTES && statusBytes == Empi.STATUS_BYTES;
            if (!ok) {
                System.err.println("fthp: fat FFM calls built for another MPI, not used");
            }
        } catch (Throwable e) {
            System.err.println("fthp: fat FFM calls unavailable: " + e);
        }
        ISEND_TEST = isend;
        IRECV_TEST = irecv;
        TEST = test;
        STATUS_WORD = word;
        AVAILABLE = ok;
    }

    private FatCalls() {}

    /** MPI_Isend then one MPI_Test. */
    public static int isendTest(MemorySegment buf, int count, long datatype, int dest, int tag, long comm,
                                MemorySegment request, MemorySegment status) {
        try {
            return (int) ISEND_TEST.invokeExact(buf, count, datatype, dest, tag, comm, request, status);
        } catch (Throwable t) {
            throw new EmpiException("fthp_fp_isend_test: " + t, t);
        }
    }

    /** MPI_Irecv then one MPI_Test. */
    public static int irecvTest(MemorySegment buf, int count, long datatype, int source, int tag, long comm,
                                MemorySegment request, MemorySegment status) {
        try {
            return (int) IRECV_TEST.invokeExact(buf, count, datatype, source, tag, comm, request, status);
        } catch (Throwable t) {
            throw new EmpiException("fthp_fp_irecv_test: " + t, t);
        }
    }

    /** MPI_Test, the flag as the result. */
    public static int test(MemorySegment request, MemorySegment status) {
        try {
            return (int) TEST.invokeExact(request, status);
        } catch (Throwable t) {
            throw new EmpiException("fthp_fp_test: " + t, t);
        }
    }

    /** A completed receive's status: source in the high 32 bits, byte count in the low 32. */
    public static long statusWord(MemorySegment status) {
        try {
            return (long) STATUS_WORD.invokeExact(status);
        } catch (Throwable t) {
            throw new EmpiException("fthp_fp_status_word: " + t, t);
        }
    }
}
