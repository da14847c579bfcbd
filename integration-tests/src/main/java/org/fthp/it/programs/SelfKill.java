package org.fthp.it.programs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * libc calls the failure test programs need and the JDK does not offer: dying by a real SIGKILL (a JVM cannot
 * destroy itself with a signal), and starting a child that inherits every open descriptor (ProcessBuilder closes
 * them all in the child).
 */
final class SelfKill {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final int SIGKILL = 9;

    private SelfKill() {
    }

    /** SIGKILL to this process, as a failure injector or the OOM killer would send it. Does not return. */
    static void now() throws Throwable {
        MethodHandle kill = LINKER.downcallHandle(LINKER.defaultLookup().find("kill").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));   // int kill(pid_t, int)
        int rc = (int) kill.invokeExact((int) ProcessHandle.current().pid(), SIGKILL);
        throw new IllegalStateException("kill(self, SIGKILL) returned " + rc);
    }

    /**
     * Starts {@code /bin/sleep seconds} with posix_spawn, so it inherits this process's descriptors, the socket
     * to the coordinator among them (the JDK opens sockets without close-on-exec): while it lives, that
     * connection does not end when this process dies. Returns its pid.
     */
    static long spawnDescriptorHolder(int seconds) throws Throwable {
        MethodHandle spawn = LINKER.downcallHandle(LINKER.defaultLookup().find("posix_spawn").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pid = arena.allocate(JAVA_INT);
            MemorySegment path = arena.allocateFrom("/bin/sleep");
            MemorySegment argv = arena.allocate(ADDRESS, 3);
            argv.setAtIndex(ADDRESS, 0, path);
            argv.setAtIndex(ADDRESS, 1, arena.allocateFrom(Integer.toString(seconds)));
            argv.setAtIndex(ADDRESS, 2, MemorySegment.NULL);
            MemorySegment envp = arena.allocate(ADDRESS, 1);
            envp.setAtIndex(ADDRESS, 0, MemorySegment.NULL);
            int rc = (int) spawn.invokeExact(pid, path, MemorySegment.NULL, MemorySegment.NULL, argv, envp);
            if (rc != 0) {
                throw new IllegalStateException("posix_spawn /bin/sleep failed: " + rc);
            }
            return pid.get(JAVA_INT, 0);
        }
    }
}
