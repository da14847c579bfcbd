package org.fthp.replication.failure;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.fthp.replication.output.RuntimeMessages;

/**
 * Stops this process when it cannot go on, saying why on the process's real
 * stderr: a replica's System.err is not printed, and this message must be.
 */
public final class Fatal {

    private static final int SIGKILL = 9;

    private Fatal() {}

    /** The job cannot go on from here: exits with {@code exitCode}, which ends the job. */
    public static void stop(String message, int exitCode) {
        RuntimeMessages.say("fthp: " + message);
        Runtime.getRuntime().halt(exitCode);
    }

    /**
     * This copy is lost but the job need not be (a wedged blocking call, a
     * copy the coordinators already failed): it dies as a failed process
     * does, by SIGKILL, so the launcher's proxy hides it like any failure and
     * the coordinators carry on with the other copy of its rank. An exit
     * code would make mpirun end the whole job.
     */
    public static void dieAsFailed(String message) {
        RuntimeMessages.say("fthp: " + message);
        killSelf();
    }

    /** SIGKILL to this process, as a failure injector or the OOM killer would send it. Does not return. */
    static void killSelf() {
        Linker linker = Linker.nativeLinker();
        MethodHandle kill = linker.downcallHandle(linker.defaultLookup().find("kill").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        try {
            int rc = (int) kill.invokeExact((int) ProcessHandle.current().pid(), SIGKILL);
            throw new IllegalStateException("kill(self, SIGKILL) returned " + rc);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot SIGKILL this process", t);
        }
    }
}
