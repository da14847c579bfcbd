package org.fthp.replication.output;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Where a replicated rank's stdout and stderr go: two append-only files that
 * fthp-run relays to its own stdout and stderr, line by line.
 *
 * <p>Why files and not mpirun's pipes: a pipe cannot say what it received,
 * so a computational copy killed between writing a piece of output and
 * recording that it did leaves its replica to guess, and a guess prints the
 * piece twice or loses it. A file's length is exactly what reached it, even
 * after its writer was killed in the middle of a write; the promoted replica
 * continues from that length. The directory must be shared by both copies
 * (one host here; a multi-host job would need the coordinators to relay).
 */
final class RankOutputFiles implements RankOutputTarget {

    /** Set by fthp-run when it relays the files in this directory. */
    static final String DIR_ENV = "FTHP_OUTPUT_DIR";

    static final int STDOUT = 0;
    static final int STDERR = 1;
    private static final String[] NAMES = {"stdout-", "stderr-"};

    private final File[] files;

    private RankOutputFiles(File[] files) {
        this.files = files;
    }

    /**
     * The files of logical rank {@code logical}, or null when fthp-run relays
     * no output files. fthp-run creates them before any rank starts: a missing
     * one means this process does not see fthp-run's directory (another host),
     * and then neither copy could continue the other's output exactly.
     */
    static RankOutputFiles of(int logical) throws IOException {
        String dir = System.getenv(DIR_ENV);
        if (dir == null || dir.isBlank()) {
            return null;
        }
        File[] files = new File[NAMES.length];
        for (int s = 0; s < NAMES.length; s++) {
            files[s] = Path.of(dir, NAMES[s] + logical).toFile();
            if (!files[s].isFile()) {
                throw new IOException(files[s] + " does not exist: the ranks of a replicated job must run where "
                        + "fthp-run can relay their output (one host)");
            }
        }
        return new RankOutputFiles(files);
    }

    @Override
    public OutputStream append(int stream) throws IOException {
        return new FileOutputStream(files[stream], true);
    }

    /** The writer's appends go on from the new end (the files are opened to append). */
    @Override
    public void cut(int stream, long length) {
        try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(files[stream].toPath(),
                java.nio.file.StandardOpenOption.WRITE)) {
            c.truncate(length);
        } catch (IOException e) {
            RuntimeMessages.say("fthp: cannot cut " + files[stream] + " back to " + length + " bytes: "
                    + e.getMessage());
        }
    }

    /** Every byte any copy of the rank wrote to {@code stream}: the file's length. */
    @Override
    public long written(int stream) {
        return files[stream].length();
    }
}
