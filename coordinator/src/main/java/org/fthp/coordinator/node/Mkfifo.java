package org.fthp.coordinator.node;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * libc {@code mkfifo(3)} through FFM. The JDK has no API that creates a named pipe, and starting {@code mkfifo(1)}
 * would put a fork and an external tool on the coordinator's start-up path; one downcall is smaller than either.
 */
final class Mkfifo {
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle MKFIFO;

    static {
        Linker linker = Linker.nativeLinker();
        MemorySegment symbol = linker.defaultLookup().find("mkfifo")
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no mkfifo"));
        MKFIFO = linker.downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT),
                Linker.Option.captureCallState("errno"));
    }

    private Mkfifo() {
    }

    /** Creates a FIFO at {@code path} with permission bits {@code mode} (less the umask); fails if it exists. */
    static void create(Path path, int mode) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) MKFIFO.invokeExact(state, arena.allocateFrom(path.toString()), mode);
            if (rc != 0) {
                throw new IOException("mkfifo " + path + " failed: errno " + (int) ERRNO.get(state, 0L));
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("mkfifo " + path + " failed", t);
        }
    }
}
