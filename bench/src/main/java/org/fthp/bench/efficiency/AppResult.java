package org.fthp.bench.efficiency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a run's program says of its own result, in the files it wrote into the run's {@code out/}: the useful work
 * it did (the application's unit: HPCG's floating-point operations of the timed sets, CloverLeaf's cell updates),
 * whether the result is valid by the application's own check, and a digest of the result to compare with the
 * failure-free run of the same layout ("" where the application's own check is the verdict).
 *
 * @param app    "HPCG", "CloverLeaf", or "" when the run wrote nothing
 * @param work   useful work, in the application's unit (NaN: none reported)
 * @param valid  the application's own check passed (HPCG: VALID; CloverLeaf: it finished its steps)
 * @param answer SHA-256 of CloverLeaf's full-precision field summaries; "" for HPCG
 */
public record AppResult(String app, double work, boolean valid, String answer) {

    public static final AppResult NONE = new AppResult("", Double.NaN, false, "");

    private static final String HPCG_FLOPS = "Floating Point Operations Summary::Total=";
    /** CloverLeaf's closing line: " Benchmark: S steps of XxY cells on R rank(s): ...". */
    private static final Pattern CLOVER_BENCHMARK = Pattern.compile(" Benchmark: (\\d+) steps of (\\d+)x(\\d+) cells");

    /** HPCG's report text ("" when there is none). */
    public static AppResult ofHpcgReport(String report) {
        if (report.isEmpty()) {
            return NONE;
        }
        double flops = Double.NaN;
        for (String line : report.split("\n")) {
            if (line.startsWith(HPCG_FLOPS)) {
                flops = Double.parseDouble(line.substring(HPCG_FLOPS.length()).strip());
            }
        }
        return new AppResult("HPCG", flops, report.contains("HPCG result is VALID") && !Double.isNaN(flops), "");
    }

    /** CloverLeaf's clover.out and its --summary-file (either may be empty: a run that did not finish). */
    public static AppResult ofCloverLeaf(String cloverOut, byte[] summaries) {
        Matcher m = CLOVER_BENCHMARK.matcher(cloverOut);
        if (!m.find()) {
            return new AppResult("CloverLeaf", Double.NaN, false, "");
        }
        double cellUpdates = Double.parseDouble(m.group(1)) * Double.parseDouble(m.group(2))
                * Double.parseDouble(m.group(3));
        return new AppResult("CloverLeaf", cellUpdates, summaries.length > 0, sha256(summaries));
    }

    /** Reads whichever application wrote into {@code out}. */
    public static AppResult read(Path out) throws IOException {
        if (!Files.isDirectory(out)) {
            return NONE;
        }
        Path clover = out.resolve("clover.out");
        if (Files.exists(clover)) {
            Path summary = out.resolve("summary.txt");
            return ofCloverLeaf(Files.readString(clover),
                    Files.exists(summary) ? Files.readAllBytes(summary) : new byte[0]);
        }
        try (Stream<Path> files = Files.list(out)) {
            List<Path> reports = files.filter(f -> f.getFileName().toString().startsWith("HPCG-Benchmark_")).sorted()
                    .toList();
            return reports.isEmpty() ? NONE : ofHpcgReport(Files.readString(reports.get(reports.size() - 1)));
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
