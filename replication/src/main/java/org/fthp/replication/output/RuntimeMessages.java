package org.fthp.replication.output;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * What FTHP-J itself has to say (warnings, traces, why it stops), written to
 * the process's real stderr in one write per line. Never through
 * {@code System.err}: that is the program's stream, which a computational
 * copy appends to its rank's file and a replica keeps in a ring, byte for byte
 * alike. A line only one of the twins printed there would shift the position
 * a promoted replica continues from.
 */
public final class RuntimeMessages {

    @SuppressWarnings("resource")   // fd 2 stays open for whoever else writes to it
    private static final FileOutputStream ERR = new FileOutputStream(FileDescriptor.err);

    private RuntimeMessages() {}

    public static void say(String line) {
        try {
            synchronized (ERR) {
                ERR.write((line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException ignored) {
            // nowhere left to say it
        }
    }
}
