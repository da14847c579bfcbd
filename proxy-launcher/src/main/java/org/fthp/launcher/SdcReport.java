package org.fthp.launcher;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

import org.fthp.checkpoint.verify.SdcDetectedEvent;

/**
 * What fthp-run says about twin comparison: the {@code sdc-detected} event of a job a difference ended (from the
 * ranks' reason, {@code rank=R epoch=E what=messages|state firstSendAfter=N}), and the summary line: how many ranks
 * were covered (those with a replica), the comparisons made, those left unchecked because a twin was dead, and the
 * mismatches.
 */
final class SdcReport {

    private SdcReport() {}

    /** Whether the coordinators' abort line is a job ended by a difference between twins. */
    static boolean detected(String abortLine) {
        return abortLine.contains(SdcOptions.REASON)
                && FthpRun.programExitCode(abortLine).orElse(-1) == SdcOptions.EXIT_SDC;
    }

    /** Appends the {@code sdc-detected} event, when the job has an events file. */
    static void event(String abortLine, Optional<Path> events, String action) {
        if (events.isEmpty()) {
            return;
        }
        try (BufferedWriter out = Files.newBufferedWriter(events.get(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            out.write(SdcDetectedEvent.line(Instant.now(), abortLine, action) + System.lineSeparator());
        } catch (IOException e) {
            System.err.println("fthp-run: cannot write " + events.get() + ": " + e.getMessage());
        }
    }

    /** The summary line, from the tallies the comparing copies left in {@code statsDir}. */
    static void print(Path statsDir, LaunchOptions options, SdcOptions sdc, PrintStream err) {
        if (options.replicas() == 0 && sdc.corruptions().isEmpty()) {
            return;
        }
        if (sdc.mode().equals("off")) {
            err.printf("fthp-run: summary: twin comparison off (--sdc off): none of %d ranks covered%n",
                    options.ranks());
            return;
        }
        long comparisons = 0;
        long unchecked = 0;
        java.util.Set<String> mismatched = new java.util.HashSet<>();
        try (Stream<Path> files = Files.list(statsDir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("sdc-")).toList()) {
                String[] v = Files.readString(f).trim().split(" ");
                if (v.length >= 5) {
                    // both copies of a rank tally each comparison: the computational copy's counts; a promoted
                    // replica's unchecked ones count too
                    if (v[1].equals("CMP")) {
                        comparisons += Long.parseLong(v[2]);
                    }
                    unchecked += Long.parseLong(v[3]);
                    if (!v[4].equals("0")) {
                        String incarnation = f.getFileName().toString().split("-")[1];
                        mismatched.add(incarnation + "/" + v[0]);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // a partial tally is still one
        }
        int covered = options.replicas();
        String notCovered = covered == options.ranks() ? ""
                : " (rank" + (options.ranks() - covered == 1 ? " " + covered : "s " + covered + ".."
                        + (options.ranks() - 1)) + " not covered: no replica)";
        err.printf("fthp-run: summary: twin comparison covered %d of %d ranks%s; %d comparisons, %d unchecked "
                        + "(twin dead), %d mismatches%n",
                covered, options.ranks(), notCovered, comparisons, unchecked, mismatched.size());
    }
}
