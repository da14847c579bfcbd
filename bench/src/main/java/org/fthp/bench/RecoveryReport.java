package org.fthp.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recovery time per injected kill, from a run's event log (fthp-run
 * --events: when each kill was injected and detected) and repair log
 * (FTHP_REPAIR_LOG: when each survivor was back in user code, and its steps):
 *
 * <pre>java -cp fthp-bench.jar org.fthp.bench.RecoveryReport events.jsonl repairs.jsonl [more pairs...]</pre>
 *
 * <p>For each kill: detection (kill to the coordinators' failure set), split,
 * when the launcher's proxy library traced its reap (FTHP_PROXY_TRACE into
 * the same event log), into the killed process's teardown until mpirun
 * reaped it and the way from there to the primary's decision (a lost
 * connection may win, then the second part is negative); delivery (the
 * primary's decision to the last survivor holding it); notification (kill
 * to the last survivor holding the new failure set: how long the survivors
 * run unaware), notification-to-start (the longest a survivor took to begin repairing),
 * then agreement, rebuild, record exchange (message recovery and replay
 * planning) and reissue/resend/replay, each the longest over the survivors
 * of that epoch, and the total from the kill to the last survivor back in
 * user code. Prints a Markdown table of medians and maxima.
 */
public final class RecoveryReport {

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(\"[^\"]*\"|[-\\w.:]+)");

    private record Kill(double injectedMicros, double reapedMicros, double detectedMicros, long epoch) {}

    public static void main(String[] args) throws IOException {
        if (args.length == 0 || args.length % 2 != 0) {
            System.err.println("usage: RecoveryReport events.jsonl repairs.jsonl [events.jsonl repairs.jsonl ...]");
            System.exit(2);
        }
        Map<String, List<Double>> steps = new HashMap<>();
        String[] names = {"detection", "kill-to-reaped", "reaped-to-detected", "delivery", "kill-to-all-notified", "notified-to-start", "agree", "rebuild", "records", "reissue-resend", "total"};
        for (String n : names) {
            steps.put(n, new ArrayList<>());
        }
        int kills = 0;
        for (int i = 0; i < args.length; i += 2) {
            kills += add(Path.of(args[i]), Path.of(args[i + 1]), steps);
        }
        System.out.printf("Recovery after %d kills (each step: the longest over the survivors of that failure)%n%n",
                kills);
        System.out.println("| step | median ms | max ms |");
        System.out.println("|---|---:|---:|");
        for (String n : names) {
            List<Double> v = steps.get(n).stream().sorted().toList();
            if (v.isEmpty()) {
                continue;
            }
            System.out.printf(java.util.Locale.ROOT, "| %s | %.1f | %.1f |%n", n, v.get(v.size() / 2) / 1000,
                    v.get(v.size() - 1) / 1000);
        }
    }

    private static int add(Path eventsFile, Path repairsFile, Map<String, List<Double>> steps) throws IOException {
        Map<Integer, Double> injectedByRank = new HashMap<>();
        Map<String, Double> reapedByPid = new HashMap<>();
        List<Map<String, String>> detected = new ArrayList<>();
        for (String line : Files.readAllLines(eventsFile)) {
            Map<String, String> f = fields(line);
            double t = micros(Instant.parse(f.get("time")));
            switch (f.getOrDefault("event", "")) {
                case "failure-injected" -> injectedByRank.put(Integer.parseInt(f.get("nativeRank")), t);
                case "proxy-reaped" -> reapedByPid.put(f.get("pid"), t);
                case "failure-detected" -> detected.add(f);
                default -> { }
            }
        }
        List<Kill> kills = new ArrayList<>();
        for (Map<String, String> f : detected) {
            Double injected = injectedByRank.get(Integer.parseInt(f.get("nativeRank")));
            if (injected != null) {
                kills.add(new Kill(injected, reapedByPid.getOrDefault(f.get("pid"), Double.NaN),
                        micros(Instant.parse(f.get("time"))), Long.parseLong(f.get("epoch"))));
            }
        }
        Map<Long, List<Map<String, String>>> repairs = new HashMap<>();
        for (String line : Files.readAllLines(repairsFile)) {
            Map<String, String> f = fields(line);
            repairs.computeIfAbsent(Long.parseLong(f.get("epoch")), k -> new ArrayList<>()).add(f);
        }
        int counted = 0;
        for (Kill k : kills) {
            List<Map<String, String>> survivors = repairs.get(k.epoch());
            if (survivors == null) {
                continue;   // folded into a later epoch's repair
            }
            counted++;
            steps.get("detection").add(k.detectedMicros() - k.injectedMicros());
            if (!Double.isNaN(k.reapedMicros())) {
                steps.get("kill-to-reaped").add(k.reapedMicros() - k.injectedMicros());
                steps.get("reaped-to-detected").add(k.detectedMicros() - k.reapedMicros());
            }
            double lastNotified = survivors.stream().mapToDouble(RecoveryReport::notifiedMicros).max().orElse(0);
            steps.get("delivery").add(lastNotified - k.detectedMicros());
            steps.get("kill-to-all-notified").add(lastNotified - k.injectedMicros());
            steps.get("notified-to-start").add(max(survivors, "waited"));
            steps.get("agree").add(max(survivors, "agree"));
            steps.get("rebuild").add(max(survivors, "rebuild"));
            steps.get("records").add(max(survivors, "records"));
            steps.get("reissue-resend").add(max(survivors, "resend"));
            steps.get("total").add(max(survivors, "endMicros") - k.injectedMicros());
        }
        return counted;
    }

    /** When a survivor received the failure set: its repair's end less the repair's steps and its wait before. */
    private static double notifiedMicros(Map<String, String> r) {
        double spent = 0;
        for (String step : new String[] {"waited", "agree", "rebuild", "records", "resend"}) {
            spent += Double.parseDouble(r.get(step));
        }
        return Double.parseDouble(r.get("endMicros")) - spent;
    }

    private static double max(List<Map<String, String>> rows, String key) {
        return rows.stream().mapToDouble(r -> Double.parseDouble(r.get(key))).max().orElse(0);
    }

    private static double micros(Instant t) {
        return t.getEpochSecond() * 1e6 + t.getNano() / 1e3;
    }

    static Map<String, String> fields(String jsonLine) {
        Map<String, String> out = new HashMap<>();
        Matcher m = FIELD.matcher(jsonLine);
        while (m.find()) {
            String v = m.group(2);
            out.put(m.group(1), v.startsWith("\"") ? v.substring(1, v.length() - 1) : v);
        }
        return out;
    }
}
