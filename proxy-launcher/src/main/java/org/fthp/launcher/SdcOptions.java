package org.fthp.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.fthp.checkpoint.verify.SdcDetectedEvent;
import org.fthp.launcher.inject.CorruptionSpec;

/**
 * Silent-data-corruption options of fthp-run (docs/DESIGN.md §22): {@code --sdc on|off|abort} (twin comparison, on
 * by default with replicas; on a difference roll back to the last verified checkpoint, or end with exit 6),
 * {@code --sdc-interval SECONDS} (comparisons between checkpoints), {@code --corrupt SPEC} (one injected bit flip,
 * several allowed) and {@code --sdc-rate PER_PROCESS_PER_HOUR} (random flips beside --inject's kills, seeded by
 * --seed). Taken out of the command line before the other options are read.
 */
record SdcOptions(String mode, String intervalSeconds, List<CorruptionSpec> corruptions, double ratePerHour) {

    static final String MODE_ENV = "FTHP_SDC";
    static final String INTERVAL_ENV = "FTHP_SDC_INTERVAL";
    static final String CORRUPT_ENV = "FTHP_CORRUPT";
    static final String CORRUPT_SEED_ENV = "FTHP_CORRUPT_SEED";
    /**
     * How many ranks (the lowest) the relay prints only up to their verified positions; a copy whose twin differs
     * asks for a rollback in place only when there are such ranks (what it printed since must never be shown).
     */
    static final String GATED_RANKS_ENV = "FTHP_VERIFIED_RANKS";
    static final List<String> ENV = List.of(MODE_ENV, INTERVAL_ENV, CORRUPT_ENV, CORRUPT_SEED_ENV, GATED_RANKS_ENV);
    /** Exit code of a job ended by a difference between twins. */
    static final int EXIT_SDC = 6;
    /** What the ranks' reason for that end begins with. */
    static final String REASON = SdcDetectedEvent.REASON;

    static final SdcOptions DEFAULT = new SdcOptions("on", "", List.of(), 0);

    /** The options and what is left of the command line. */
    record Extracted(SdcOptions options, List<String> rest) {}

    /** Takes the SDC options out of fthp-run's part of {@code args} (before "--"). */
    static Extracted extract(List<String> args) throws LaunchException {
        int separator = args.indexOf("--");
        int end = separator < 0 ? args.size() : separator;
        List<String> rest = new ArrayList<>();
        String mode = "on";
        String interval = "";
        double rate = 0;
        List<CorruptionSpec> corruptions = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String token = args.get(i);
            if (i >= end) {
                rest.add(token);
                continue;
            }
            switch (token) {
                case "--sdc" -> {
                    mode = value(args, ++i, end, token);
                    if (!List.of("on", "off", "abort").contains(mode)) {
                        throw LaunchException.usage("--sdc takes on, off or abort, not \"" + mode + "\"");
                    }
                }
                case "--sdc-interval" -> {
                    interval = value(args, ++i, end, token);
                    LaunchOptionsParser.positiveReal(token, interval);
                }
                case "--sdc-rate" -> rate = LaunchOptionsParser.positiveReal(token, value(args, ++i, end, token));
                case "--corrupt" -> {
                    try {
                        corruptions.add(CorruptionSpec.parse(value(args, ++i, end, token)));
                    } catch (IllegalArgumentException e) {
                        throw LaunchException.usage(e.getMessage());
                    }
                }
                default -> rest.add(token);
            }
        }
        return new Extracted(new SdcOptions(mode, interval, corruptions, rate), rest);
    }

    /** What needs the job's shape: the ranks named exist. */
    void check(LaunchOptions options) throws LaunchException {
        for (CorruptionSpec c : corruptions) {
            if (c.logicalRank() >= options.ranks()) {
                throw LaunchException.usage("--corrupt names rank " + c.logicalRank() + ", but the job has ranks 0.."
                        + (options.ranks() - 1));
            }
            if (c.replica() && c.logicalRank() >= options.replicas()) {
                throw LaunchException.usage("--corrupt names the replica of rank " + c.logicalRank()
                        + ", which has none (--replicas " + options.replicas() + ")");
            }
        }
        if ((!corruptions.isEmpty() || ratePerHour > 0) && options.replicas() == 0 && !options.checkpoint().wanted()) {
            throw LaunchException.usage("--corrupt and --sdc-rate need --replicas M or a checkpointed job");
        }
        if (ratePerHour > 0 && !options.kills().weibull().isPresent()) {
            throw LaunchException.usage("--sdc-rate needs --inject weibull (it draws beside the kills)");
        }
    }

    /** The ranks' environment: mode, interval, the flips (given, and drawn at --sdc-rate) and their seed. */
    void addTo(Map<String, String> jobEnv, LaunchOptions options) {
        jobEnv.put(MODE_ENV, mode);
        // none until the launch that relays the output says (FthpRun); several hosts never hold it back
        jobEnv.put(GATED_RANKS_ENV, "0");
        jobEnv.put(INTERVAL_ENV, intervalSeconds);
        long seed = options.kills().weibull().map(w -> w.seed()).orElse(1L);
        List<String> entries = new ArrayList<>();
        for (CorruptionSpec c : corruptions) {
            entries.add(c.forRanks(options.ranks()));
        }
        if (ratePerHour > 0) {
            // every process flips at its first arrival of a Poisson process of that rate (if it runs that long):
            // exponential times, as independent upsets in each process's memory
            SplittableRandom random = new SplittableRandom(seed ^ 0x5DCL);
            for (int p = 0; p < options.processes(); p++) {
                double seconds = -Math.log(1 - random.nextDouble()) * 3600 / ratePerHour;
                boolean message = random.nextBoolean();
                entries.add(p + ":" + (message ? "msg" : "state") + ":@"
                        + String.format(java.util.Locale.ROOT, "%.3f", seconds));
            }
        }
        jobEnv.put(CORRUPT_ENV, String.join(",", entries));
        jobEnv.put(CORRUPT_SEED_ENV, Long.toString(seed));
    }

    /** Whether a mismatch rolls the job back (a restart) rather than ending it. */
    boolean rollsBack() {
        return !mode.equals("abort");
    }

    private static String value(List<String> args, int i, int end, String option) throws LaunchException {
        if (i >= end) {
            throw LaunchException.usage(option + " needs a value");
        }
        return args.get(i);
    }
}
