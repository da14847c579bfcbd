package org.fthp.replication.staging;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The C library's calls that make memory one process can share with the
 * others of its node: an anonymous memory file ({@code memfd_create}), its
 * size, a shared mapping of it, and the same file opened from another process
 * through {@code /proc/<pid>/fd/<fd>}. Every call reports failure as a
 * negative result with the C library's {@code errno} in the message; none
 * blocks on another process.
 */
final class SharedMappings {

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int O_RDONLY = 0;
    static final int O_CLOEXEC = 0x80000;
    static final int MFD_CLOEXEC = 1;
    static final int SEEK_END = 2;
    /** madvise: free the pages behind a shared mapping's range; the range stays mapped and reads zero. */
    static final int MADV_REMOVE = 9;
    private static final long MAP_FAILED = -1L;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(
            java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");

    private static final MethodHandle MEMFD_CREATE = bind("memfd_create",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle FTRUNCATE = bind("ftruncate",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle OPEN = bind("open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle LSEEK = bind("lseek",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = bind("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle MMAP = bind("mmap", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MUNMAP = bind("munmap",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle MADVISE = bind("madvise", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    private SharedMappings() {}

    private static MethodHandle bind(String name, FunctionDescriptor fd) {
        return LIBC.find(name).map(f -> LINKER.downcallHandle(f, fd, CAPTURE)).orElse(null);
    }

    /** Whether the C library has every call this needs (Linux with glibc 2.27 or later). */
    static boolean available() {
        return MEMFD_CREATE != null && FTRUNCATE != null && OPEN != null && LSEEK != null && CLOSE != null && MMAP != null
                && MUNMAP != null && MADVISE != null;
    }

    /** A new anonymous memory file of {@code bytes} (sparse: pages exist once written); its descriptor. */
    static int createFile(String name, long bytes) throws MappingException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int fd = (int) MEMFD_CREATE.invokeExact(state, arena.allocateFrom(name), MFD_CLOEXEC);
            if (fd < 0) {
                throw failure("memfd_create", state);
            }
            int rc = (int) FTRUNCATE.invokeExact(state, fd, bytes);
            if (rc != 0) {
                MappingException e = failure("ftruncate to " + bytes + " bytes", state);
                close(fd);
                throw e;
            }
            return fd;
        } catch (MappingException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("memfd_create downcall", t);
        }
    }

    /** Opens {@code path} read-only; its descriptor. */
    static int openReadOnly(String path) throws MappingException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(path), O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                throw failure("open " + path, state);
            }
            return fd;
        } catch (MappingException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("open downcall", t);
        }
    }

    /**
     * The length of file {@code fd} (seeks to its end), or -1 if it has none (a pipe, a socket). A mapping's
     * page wholly past the end of its file raises SIGBUS when read, so a file is measured before it is mapped.
     */
    static long size(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            return (long) LSEEK.invokeExact(arena.allocate(CALL_STATE), fd, 0L, SEEK_END);
        } catch (Throwable t) {
            throw new IllegalStateException("lseek downcall", t);
        }
    }

    static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            int unused = (int) CLOSE.invokeExact(arena.allocate(CALL_STATE), fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close downcall", t);
        }
    }

    /** Maps {@code bytes} of file {@code fd} shared, from its start; the mapping's address. */
    static long map(int fd, long bytes, int protection) throws MappingException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            long address = (long) MMAP.invokeExact(state, 0L, bytes, protection, MAP_SHARED, fd, 0L);
            if (address == MAP_FAILED) {
                throw failure("mmap of " + bytes + " bytes", state);
            }
            return address;
        } catch (MappingException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("mmap downcall", t);
        }
    }

    static void unmap(long address, long bytes) {
        try (Arena arena = Arena.ofConfined()) {
            int unused = (int) MUNMAP.invokeExact(arena.allocate(CALL_STATE), address, bytes);
        } catch (Throwable t) {
            throw new IllegalStateException("munmap downcall", t);
        }
    }

    /** Gives the pages behind {@code [address, address + bytes)} back; returns whether the kernel did. */
    static boolean removePages(long address, long bytes) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) MADVISE.invokeExact(arena.allocate(CALL_STATE), address, bytes, MADV_REMOVE) == 0;
        } catch (Throwable t) {
            throw new IllegalStateException("madvise downcall", t);
        }
    }

    private static MappingException failure(String what, MemorySegment state) {
        int errno = (int) ERRNO.get(state, 0L);
        return new MappingException(what + " failed: errno " + errno);
    }

    /** A call the kernel refused: the caller falls back to the native library's own transfer. */
    static final class MappingException extends Exception {
        MappingException(String message) {
            super(message);
        }
    }
}
