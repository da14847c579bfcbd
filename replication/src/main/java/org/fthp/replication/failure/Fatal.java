package org.fthp.replication.failure;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Stops this process when it cannot go on, saying why on the process's real
 * stderr: a replica's System.err is not printed, and this message must be.
 */
public final class Fatal {

    private Fatal() {}

    public static void stop(String message, int exitCode) {
        try {
            @SuppressWarnings("resource")   // fd 2 stays open for whoever else writes to it
            FileOutputStream err = new FileOutputStream(FileDescriptor.err);
            err.write(("fthp: " + message + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException ignored) {
            // nowhere left to say it
        }
        Runtime.getRuntime().halt(exitCode);
    }
}
