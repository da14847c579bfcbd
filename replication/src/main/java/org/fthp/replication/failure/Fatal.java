package org.fthp.replication.failure;

import org.fthp.replication.output.RuntimeMessages;

/**
 * Stops this process when it cannot go on, saying why on the process's real
 * stderr: a replica's System.err is not printed, and this message must be.
 */
public final class Fatal {

    private Fatal() {}

    public static void stop(String message, int exitCode) {
        RuntimeMessages.say("fthp: " + message);
        Runtime.getRuntime().halt(exitCode);
    }
}
