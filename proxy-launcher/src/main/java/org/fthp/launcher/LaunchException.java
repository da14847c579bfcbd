package org.fthp.launcher;

/**
 * A reason to stop before (or instead of) launching, with the exit code fthp-run ends with.
 * The message is meant for the user as is: no stack trace is printed for it.
 */
public class LaunchException extends Exception {

    /** Bad command line: the user has to change what they typed. */
    public static final int USAGE = 2;
    /** The environment lacks something (mpirun, runtime jar, ABI description, JDK). */
    public static final int ENVIRONMENT = 3;
    /** A rank lost every copy and the job cannot go on (no restart left, or no hosts to relaunch on). */
    public static final int RANK_LOST = 4;

    private final int exitCode;

    public LaunchException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public static LaunchException usage(String message) {
        return new LaunchException(USAGE, message);
    }

    /** The job cannot be relaunched: too few live hosts, or fthp-run's own host lost. */
    public static LaunchException rankLost(String message) {
        return new LaunchException(RANK_LOST, message);
    }

    public static LaunchException environment(String message) {
        return new LaunchException(ENVIRONMENT, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
