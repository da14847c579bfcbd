package org.fthp.launcher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code --checkpoint-dir} checked before anything starts: created if missing, and proven writable by writing,
 * forcing and deleting a probe file (the coordinators check it again as they start; this check gives the user a
 * launcher error rather than a coordinator's).
 */
final class CheckpointDirectory {

    private CheckpointDirectory() {}

    static Path check(Path dir) throws LaunchException {
        Path abs = dir.toAbsolutePath();
        try {
            Files.createDirectories(abs);
        } catch (IOException e) {
            throw LaunchException.environment("--checkpoint-dir " + abs + " cannot be created: " + e);
        }
        if (!Files.isDirectory(abs)) {
            throw LaunchException.environment("--checkpoint-dir " + abs + " is not a directory");
        }
        Path probe = abs.resolve(".fthp-run-probe-" + ProcessHandle.current().pid());
        try {
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {1}));
                ch.force(true);
            }
            Files.delete(probe);
        } catch (IOException e) {
            throw LaunchException.environment("--checkpoint-dir " + abs + " is not writable: " + e);
        }
        return abs;
    }
}
