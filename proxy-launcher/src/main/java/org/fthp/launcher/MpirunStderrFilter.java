package org.fthp.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * mpirun's stderr (its own notices and the ranks' stderr) on its way to ours, less the native launcher's notice
 * that a process ended the job when that end has been explained already: by the coordinators (fthp-run printed
 * the program's end or the lost rank) or by a rank's own {@code fthp: } line. Everything else passes unchanged,
 * byte for byte, a line at a time.
 *
 * <p>The launchers frame their notices: Open MPI between lines of dashes, MPICH's hydra between lines of equals
 * signs. Such a block is held until it closes, then dropped or written; a block that does not close within
 * {@link #MAX_BLOCK_LINES} is written as it came.
 */
final class MpirunStderrFilter {

    /** Longer than any launcher notice; a frame line that opens no notice does not hold output long. */
    static final int MAX_BLOCK_LINES = 40;
    /**
     * How long a job-end notice waits for the explanation: mpirun may print it just before the coordinators'
     * verdict reaches fthp-run (ABORT_GRACE_SECONDS is what fthp-run waits for it).
     */
    static final long EXPLANATION_WAIT_MILLIS = 2_000;

    /** Open MPI's and MPICH's words for "a process ended the job", which fthp-run says in its own words. */
    private static final List<String> JOB_END_NOTICES = List.of(
            "terminated normally, but",
            "exited with non-zero status",
            "MPI_ABORT was invoked",
            "exiting improperly",
            "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES");
    /** Open MPI's follow-up lines on a notice it printed once for several processes (help aggregation). */
    private static final List<String> NOTICE_FOLLOW_UPS = List.of("sent help message", "orte_base_help_aggregate");
    /** A rank's own line about how the job ends (replication/runtime's end notices). */
    private static final String RANK_EXPLAINS = "fthp: ";

    private final InputStream in;
    private final OutputStream out;
    private final BooleanSupplier explained;
    private final long explanationWaitMillis;
    private final List<byte[]> block = new ArrayList<>();
    private boolean rankExplained;
    private boolean droppedNotice;
    private boolean midLine;

    private MpirunStderrFilter(InputStream in, OutputStream out, BooleanSupplier explained,
                               long explanationWaitMillis) {
        this.in = in;
        this.out = out;
        this.explained = explained;
        this.explanationWaitMillis = explanationWaitMillis;
    }

    /**
     * Copies {@code in} to {@code out} on a daemon thread until {@code in} ends; join the thread before exiting.
     * {@code explained} null: no coordinators, only a rank's own line can explain an end (nothing to wait for).
     */
    static Thread start(InputStream in, OutputStream out, BooleanSupplier explained) {
        MpirunStderrFilter filter = explained == null ? new MpirunStderrFilter(in, out, () -> false, 0)
                : new MpirunStderrFilter(in, out, explained, EXPLANATION_WAIT_MILLIS);
        Thread t = new Thread(filter::copy, "fthp-run-mpirun-stderr");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The filter over a whole stream, on this thread, waiting for an explanation as long as given (tests). */
    static void copy(InputStream in, OutputStream out, BooleanSupplier explained, long explanationWaitMillis) {
        new MpirunStderrFilter(in, out, explained, explanationWaitMillis).copy();
    }

    private void copy() {
        byte[] buffer = new byte[8192];
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try (in) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        line.write(buffer, from, i + 1 - from);
                        from = i + 1;
                        line(line.toByteArray());
                        line.reset();
                    }
                }
                line.write(buffer, from, n - from);
                if (line.size() > 0 && block.isEmpty()) {
                    // a partial line outside a notice (a prompt, a progress mark) is not held back
                    write(line.toByteArray());
                    line.reset();
                    midLine = true;
                }
            }
        } catch (IOException e) {
            // mpirun's stderr closed under us: it has ended
        } finally {
            if (line.size() > 0) {
                line(line.toByteArray());
            }
            writeBlock();
            flush();
        }
    }

    private void line(byte[] bytes) {
        boolean startsLine = !midLine;
        midLine = false;
        String text = new String(bytes, StandardCharsets.ISO_8859_1).strip();
        if (startsLine && text.startsWith(RANK_EXPLAINS)) {
            rankExplained = true;
        }
        boolean frame = startsLine && isFrame(text);
        if (droppedNotice && block.isEmpty() && NOTICE_FOLLOW_UPS.stream().anyMatch(text::contains)) {
            return;
        }
        if (block.isEmpty()) {
            if (frame) {
                block.add(bytes);
            } else {
                write(bytes);
            }
            return;
        }
        block.add(bytes);
        if (frame && block.size() > 1) {
            if (isJobEndNotice() && explainedWithin(explanationWaitMillis)) {
                block.clear();
                droppedNotice = true;
            } else {
                writeBlock();
            }
        } else if (block.size() >= MAX_BLOCK_LINES) {
            writeBlock();
        }
    }

    /** A notice's frame: a line of 20 or more dashes, or of equals signs. */
    static boolean isFrame(String text) {
        if (text.length() < 20) {
            return false;
        }
        char c = text.charAt(0);
        return (c == '-' || c == '=') && text.chars().allMatch(ch -> ch == c);
    }

    private boolean isJobEndNotice() {
        StringBuilder text = new StringBuilder();
        for (byte[] b : block) {
            text.append(new String(b, StandardCharsets.ISO_8859_1));
        }
        String notice = text.toString().replaceAll("\\s+", " ");
        return JOB_END_NOTICES.stream().anyMatch(notice::contains);
    }

    private boolean explainedWithin(long millis) {
        return rankExplained || Poll.within(explained, millis);
    }

    private void writeBlock() {
        for (byte[] b : block) {
            write(b);
        }
        block.clear();
    }

    private void write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            // our stderr is gone: nothing left to tell
        }
    }

    private void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            // as above
        }
    }
}
