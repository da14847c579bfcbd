package org.fthp.empi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Keeps the JVM's own signals away from UCX, which MPICH 4 (ch4:ucx) and Open MPI's UCX components load.
 *
 * <p>The JVM takes SIGSEGV in normal operation: an implicit null check in compiled code, a safepoint poll on an
 * armed polling page. UCX installs its error handler for SIGSEGV, SIGBUS, SIGILL and SIGFPE when it is loaded,
 * replacing the JVM's, and then prints a backtrace and ends the process on the first of them: measured on MPICH,
 * a NullPointerException in C1-compiled code after MPI_Init kills the JVM ("Caught signal 11 ... address not
 * mapped"), and repaired jobs died on armed polling pages ("invalid permissions for mapped object"). An empty
 * {@code UCX_ERROR_SIGNALS} makes UCX install none; it is read when UCX initialises, so it is set in this
 * process's C environment before the MPI library is opened. A value the user set is left alone.
 */
final class JvmSignals {

    static final String UCX_ERROR_SIGNALS = "UCX_ERROR_SIGNALS";

    private JvmSignals() {}

    /** Sets {@code UCX_ERROR_SIGNALS} to empty in the C environment unless it is set. */
    static void keepFromUcx() {
        Linker linker = Linker.nativeLinker();
        MethodHandle setenv = linker.downcallHandle(linker.defaultLookup().find("setenv").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT));
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) setenv.invokeExact(a.allocateFrom(UCX_ERROR_SIGNALS), a.allocateFrom(""), 0);
            if (rc != 0) {
                throw new EmpiException("setenv(" + UCX_ERROR_SIGNALS + ") failed");
            }
        } catch (EmpiException e) {
            throw e;
        } catch (Throwable t) {
            throw new EmpiException("setenv(" + UCX_ERROR_SIGNALS + ") failed: " + t, t);
        }
    }
}
