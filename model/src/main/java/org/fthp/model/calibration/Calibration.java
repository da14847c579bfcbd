package org.fthp.model.calibration;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The measured costs the model runs on, meant to be filled from the
 * experiments (bench/efficiency.sh writes one) through a small properties file:
 *
 * <pre>
 * ranks=8                     # ranks the checkpoint/restore figures were measured with
 * checkpoint.seconds=2.1      # one checkpoint write, whole job (coordinated)
 * checkpoint.scaling=0.74     # C(n) = checkpoint.seconds · (n / ranks)^scaling for n ranks holding data
 * restore.seconds=2.5         # reading a checkpoint back at restart; scales like the checkpoint
 * relaunch.seconds=4.0        # mpirun + JVM start + MPI_Init + coordinator up, independent of the data
 * repair.seconds=0.3          # per failure replication survives: communicator rebuild + message recovery
 * replication.overhead=0.013  # failure-free slowdown of a replicated run against the plain one (fraction)
 * logtrim.fraction=0.0        # message-log trimming time per second of work under replication
 * </pre>
 *
 * Every key is optional except {@code ranks} and {@code checkpoint.seconds}
 * (restore defaults to the checkpoint, the others to 0); unknown keys are
 * refused (a misspelt key must not silently leave a default in place). Weak
 * scaling is assumed: with replication the same processes hold fewer ranks and
 * so less data, which {@code checkpoint.scaling} turns into a cheaper checkpoint
 * (0: node-local storage, the cost does not depend on the data; 1: a shared file
 * system of fixed bandwidth; 0.74 fits Table I's HPCG costs).
 */
public record Calibration(int referenceRanks, double checkpointSeconds, double checkpointScaling,
                          double restoreSeconds, double relaunchSeconds, double repairSeconds,
                          double replicationOverhead, double logTrimFraction) {

    private static final Set<String> KEYS = Set.of("ranks", "checkpoint.seconds", "checkpoint.scaling",
            "restore.seconds", "relaunch.seconds", "repair.seconds", "replication.overhead", "logtrim.fraction");

    public Calibration {
        if (referenceRanks < 1) {
            throw new IllegalArgumentException("ranks must be >= 1, not " + referenceRanks);
        }
        positive("checkpoint.seconds", checkpointSeconds);
        between("checkpoint.scaling", checkpointScaling, 0, 2);
        nonNegative("restore.seconds", restoreSeconds);
        nonNegative("relaunch.seconds", relaunchSeconds);
        nonNegative("repair.seconds", repairSeconds);
        between("replication.overhead", replicationOverhead, 0, 10);
        between("logtrim.fraction", logTrimFraction, 0, 1);
    }

    /**
     * The costs of the paper's HPCG runs (Table I: 46 s at 1024 ranks growing to
     * 215 s at 8192, Fig. 13: 1.3 % replication overhead) and assumptions where
     * the paper gives none (restore as long as a checkpoint, 30 s relaunch, 1 s
     * repair). Read from {@code paper-hpcg.properties} beside this class.
     */
    public static Calibration paperHpcg() {
        try (InputStream in = Calibration.class.getResourceAsStream("paper-hpcg.properties")) {
            if (in == null) {
                throw new IllegalStateException("paper-hpcg.properties missing from the model jar");
            }
            Properties p = new Properties();
            p.load(in);
            return of(p, "paper-hpcg.properties");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read paper-hpcg.properties", e);
        }
    }

    /** Reads a calibration file; the message of a bad one names the file and the key. */
    public static Calibration load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        }
        return of(p, file.toString());
    }

    /** A calibration from properties; {@code source} names them in error messages. */
    public static Calibration of(Properties p, String source) {
        Set<String> unknown = new TreeSet<>(p.stringPropertyNames());
        unknown.removeAll(KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(source + ": unknown key(s) " + unknown + "; known: " + new TreeSet<>(KEYS));
        }
        for (String required : new String[] {"ranks", "checkpoint.seconds"}) {
            if (p.getProperty(required) == null) {
                throw new IllegalArgumentException(source + ": " + required + " is required");
            }
        }
        try {
            double checkpoint = number(p, "checkpoint.seconds", Double.NaN);
            return new Calibration(
                    (int) number(p, "ranks", 1),
                    checkpoint,
                    number(p, "checkpoint.scaling", 0),
                    number(p, "restore.seconds", checkpoint),
                    number(p, "relaunch.seconds", 0),
                    number(p, "repair.seconds", 0),
                    number(p, "replication.overhead", 0),
                    number(p, "logtrim.fraction", 0));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    /** This calibration measured at another rank count, costs unchanged (the planner's measured-here figures). */
    public Calibration measuredAt(int ranks) {
        return new Calibration(ranks, checkpointSeconds, checkpointScaling, restoreSeconds, relaunchSeconds,
                repairSeconds, replicationOverhead, logTrimFraction);
    }

    /** One checkpoint of a job whose data is held by {@code ranks} ranks. */
    public double checkpointSeconds(int ranks) {
        return checkpointSeconds * scale(ranks);
    }

    /** Restart after an interruption: relaunch, then read the checkpoint of {@code ranks} ranks back. */
    public double restartSeconds(int ranks) {
        return relaunchSeconds + restoreSeconds * scale(ranks);
    }

    private double scale(int ranks) {
        return Math.pow((double) ranks / referenceRanks, checkpointScaling);
    }

    private static double number(Properties p, String key, double fallback) {
        String text = p.getProperty(key);
        if (text == null) {
            return fallback;
        }
        try {
            double value = Double.parseDouble(text.strip());
            if (key.equals("ranks") && value != Math.rint(value)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, not \"" + text + "\"");
        }
    }

    private static void positive(String key, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(key + " must be a finite number > 0, not " + value);
        }
    }

    private static void nonNegative(String key, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(key + " must be a finite number >= 0, not " + value);
        }
    }

    private static void between(String key, double value, double low, double high) {
        if (!(value >= low && value <= high)) {
            throw new IllegalArgumentException(key + " must be in [" + low + ", " + high + "], not " + value);
        }
    }
}
