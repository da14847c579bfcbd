package org.fthp.replication.staging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which node a process runs on, as far as reading another process's memory
 * goes: the inode of its network namespace. Processes on one host share it;
 * the hosts the tests emulate with network namespaces each have their own,
 * so a pulled payload crosses them the way it would cross real hosts (pushed
 * by the native library).
 */
final class NodeIdentity {

    /** This process's, or -1 where {@code /proc/self/ns/net} cannot be read. */
    static final long CURRENT = read();

    private NodeIdentity() {}

    private static long read() {
        try {
            // "net:[4026531840]"
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
            int open = link.indexOf('[');
            int close = link.indexOf(']', open + 1);
            return open < 0 || close < 0 ? -1 : Long.parseLong(link.substring(open + 1, close));
        } catch (IOException | UnsupportedOperationException | NumberFormatException | SecurityException e) {
            return -1;
        }
    }
}
