package org.fthp.coordinator.event;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;

import org.fthp.checkpoint.verify.SdcDetectedEvent;

/**
 * The job's failure log (docs/DESIGN.md §11): one JSON object per line, appended and
 * flushed as events happen so a killed job still leaves its log. Detected
 * failures and aborts come from the primary coordinator; the failure
 * simulator will add its injected kills to the same file.
 */
public final class EventLog implements JobEvents, AutoCloseable {

    private final BufferedWriter out;
    private final Clock clock;

    public EventLog(Path file) throws IOException {
        this(file, Clock.systemUTC());
    }

    EventLog(Path file, Clock clock) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        this.clock = clock;
        // the first Instant.toString loads java.time's formatting, which a failure's line would otherwise pay
        clock.instant().toString();
    }

    /**
     * The primary writes this before it sends a failure set down, and a job's first failure runs it cold: the
     * line is built with a StringBuilder (a string concatenation links a method handle per call site on its first
     * run) and the constructor has already formatted an instant once: nothing is loaded between the decision
     * and the survivors.
     */
    @Override
    public synchronized void failuresDetected(long epoch, List<FailedProcess> newlyFailed) {
        for (FailedProcess f : newlyFailed) {
            write(new StringBuilder(192).append("{\"time\":\"").append(clock.instant())
                    .append("\",\"event\":\"failure-detected\",\"epoch\":").append(epoch)
                    .append(",\"pid\":").append(f.pid()).append(",\"nativeRank\":").append(f.nativeRank())
                    .append(",\"logicalRank\":").append(f.logicalRank()).append(",\"role\":\"").append(f.role())
                    .append("\",\"cause\":").append(quote(f.cause())).append('}').toString());
        }
    }

    @Override
    public synchronized void jobAborted(String reason, int lostRank) {
        String rank = lostRank == NO_RANK ? "" : "\"logicalRank\":" + lostRank + ",";
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"job-aborted\"," + rank
                + "\"reason\":" + quote(reason) + "}");
    }

    @Override
    public synchronized void jobRolledBack(long epoch, int rank, int spare, double seconds) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"job-rolled-back\",\"epoch\":" + epoch
                + ",\"logicalRank\":" + rank + ",\"spareNativeRank\":" + spare + ",\"seconds\":"
                + number(seconds) + "}");
    }

    @Override
    public synchronized void replicaRestored(long epoch, int rank, int spare, double seconds) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"replica-restored\",\"epoch\":" + epoch
                + ",\"logicalRank\":" + rank + ",\"spareNativeRank\":" + spare + ",\"seconds\":"
                + number(seconds) + "}");
    }

    /**
     * {@code sdc-detected} with action {@code rollback}, its fields from the copy's reason ({@code rank=R epoch=E
     * what=W firstSendAfter=N}), as fthp-run writes it for a difference that ends or relaunches the job.
     */
    @Override
    public synchronized void sdcDetected(String reason, String notInPlace) {
        if (notInPlace != null) {
            return;   // the job ends with the reason: fthp-run writes the event with what it does then
        }
        write(SdcDetectedEvent.line(clock.instant(), reason, "rollback"));
    }

    @Override
    public synchronized void sdcRolledBack(long epoch, int rank, double seconds) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"job-rolled-back\",\"epoch\":" + epoch
                + ",\"logicalRank\":" + rank + ",\"cause\":\"sdc\",\"seconds\":" + number(seconds) + "}");
    }

    @Override
    public synchronized void spareLost(int spare, int sparesLeft) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"spare-lost\",\"spareNativeRank\":" + spare
                + ",\"sparesLeft\":" + sparesLeft + "}");
    }

    @Override
    public synchronized void programEnded(String reason, int rank, int exitCode) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"program-ended\",\"logicalRank\":" + rank
                + ",\"exitCode\":" + exitCode + ",\"reason\":" + quote(reason) + "}");
    }

    @Override
    public synchronized void checkpointCommitted(long epoch, long bytes, double costSeconds) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"checkpoint-committed\",\"epoch\":" + epoch
                + ",\"bytes\":" + bytes + ",\"costSeconds\":" + number(costSeconds) + "}");
    }

    @Override
    public synchronized void checkpointInterval(double seconds, String basis) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"checkpoint-interval\",\"seconds\":"
                + number(seconds) + ",\"basis\":" + quote(basis) + "}");
    }

    @Override
    public synchronized void checkpointDurable(long epoch, long bytes) {
        write("{\"time\":\"" + clock.instant() + "\",\"event\":\"checkpoint-on-disk\",\"epoch\":" + epoch
                + ",\"bytes\":" + bytes + "}");
    }

    /** Any other line (the launcher's own events), appended as given. */
    public synchronized void append(String jsonObject) {
        write(jsonObject);
    }

    /** JSON has no NaN: an unknown figure is null. */
    static String number(double v) {
        return Double.isFinite(v) ? String.format(java.util.Locale.ROOT, "%.6f", v) : "null";
    }

    private void write(String line) {
        try {
            out.write(line);
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    /** A JSON string literal. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
