package org.fthp.launcher.inject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The live rank processes of a job on this host, by native rank: the
 * descendants of mpirun whose environment names their rank
 * ({@code OMPI_COMM_WORLD_RANK}, or {@code PMI_RANK} for other launchers).
 * Found by pid through /proc, so a kill can never hit another job's process.
 */
public final class RankProcesses {

    private RankProcesses() {}

    public static Map<Integer, ProcessHandle> of(ProcessHandle launcher) {
        Map<Integer, ProcessHandle> ranks = new TreeMap<>();
        launcher.descendants().filter(ProcessHandle::isAlive).forEach(p -> {
            Integer rank = rankOf(p.pid());
            if (rank != null) {
                ranks.putIfAbsent(rank, p);
            }
        });
        return ranks;
    }

    static Integer rankOf(long pid) {
        byte[] env;
        try {
            env = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
        } catch (IOException | SecurityException e) {
            return null;   // gone, or not ours to read
        }
        for (String entry : new String(env, StandardCharsets.UTF_8).split("\0")) {
            if (entry.startsWith("OMPI_COMM_WORLD_RANK=") || entry.startsWith("PMI_RANK=")) {
                try {
                    return Integer.parseInt(entry.substring(entry.indexOf('=') + 1));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
