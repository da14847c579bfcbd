package org.fthp.model.plan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalDouble;
import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.strategy.Recovery;
import org.fthp.model.strategy.SilentErrors;

/**
 * What the user asked the planner: the machine, the job, and the measured costs,
 * from the command line (a calibration file may supply the costs; options given
 * beside it win), spares and the rollback they allow, and silent corruption.
 */
public record PlanArguments(int processes, double mtbfPerProcessSeconds, double shape, Strikes strikes,
                            double workSeconds, Calibration calibration, boolean restartAssumed, int runs, long seed,
                            Recovery recovery, SilentErrors silentErrors) {

    /** Relaunch (mpirun + JVM start + MPI_Init) assumed when no restart cost is given. */
    static final double ASSUMED_RELAUNCH_SECONDS = 30;
    /** How the checkpoint grows with the ranks holding data when not given: the line through Table I. */
    static final double DEFAULT_CHECKPOINT_SCALING = 0.7415;

    public static final String USAGE = """
            usage: fthp-plan --processes P (--mtbf-per-process T | --system-mtbf T) --checkpoint T [options]
              --processes P             processes (cores) the job may use
              --mtbf-per-process T      mean time between failures of one process (e.g. 125y); or
              --system-mtbf T           of the whole machine at P processes (= per-process MTBF / P)
              --checkpoint T            measured time of one checkpoint of the job at P ranks
              --restart T               measured restart: relaunch + JVM start + restore (default: checkpoint + 30 s)
              --relaunch T              the relaunch part of it (default: 30 s, at most the restart)
              --repair T                time to repair a failure replication survives (default 1 s)
              --replication-overhead F  failure-free slowdown of a replicated run, fraction (default 0.013)
              --checkpoint-scaling A    checkpoint cost ~ ranks^A when replicas take ranks away (default 0.7415)
              --calibration FILE        costs from a calibration file (see the model's Calibration)
              --work T                  failure-free length of the job (default 24h)
              --shape K                 Weibull shape of the failures (default 0.7; 1 = exponential)
              --strikes any|live        may failures strike dead processes (default any: hardware failures)
              --spares S                warm spares kept beside the ranks (default 0); with checkpoints a lost rank
                                        is rolled back in place while a spare is free, relaunched otherwise
              --rollback-seconds T      measured in-place rollback (required with --spares; without spares
                                        every interruption costs the restart)
              --restore-replicas on|off dead replicas come back from spares at each commit (default on with spares)
              --sdc-rate R              silent data corruptions per process per hour (default 0), e.g. 1e-6
              --sdc on|off              replicated ranks' twins compare and roll back on a mismatch (default on)
              --runs N --seed S         Monte-Carlo runs per strategy (default 300) and seed (default 1)
            durations: 125y, 2w, 5d, 12h, 30m (minutes), 2000s or plain seconds""";

    /** Parses the arguments; an IllegalArgumentException says what is wrong in words a user understands. */
    public static PlanArguments parse(String[] args) {
        Integer processes = null;
        OptionalDouble perProcess = OptionalDouble.empty();
        OptionalDouble system = OptionalDouble.empty();
        OptionalDouble checkpoint = OptionalDouble.empty();
        OptionalDouble restart = OptionalDouble.empty();
        OptionalDouble relaunch = OptionalDouble.empty();
        OptionalDouble repair = OptionalDouble.empty();
        OptionalDouble overhead = OptionalDouble.empty();
        OptionalDouble scaling = OptionalDouble.empty();
        Calibration file = null;
        double work = 24 * 3600;
        double shape = 0.7;
        Strikes strikes = Strikes.ANY_PROCESS;
        int runs = 300;
        long seed = 1;
        int spares = 0;
        OptionalDouble rollback = OptionalDouble.empty();
        Boolean restoreReplicas = null;
        double sdcRate = 0;
        boolean compare = true;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--processes" -> processes = whole(value(args, ++i, option), option, 2);
                case "--mtbf-per-process" -> perProcess = OptionalDouble.of(Durations.parseSeconds(value(args, ++i, option), option));
                case "--system-mtbf" -> system = OptionalDouble.of(Durations.parseSeconds(value(args, ++i, option), option));
                case "--checkpoint" -> checkpoint = OptionalDouble.of(Durations.parseSeconds(value(args, ++i, option), option));
                case "--restart" -> restart = OptionalDouble.of(Durations.parseSeconds(value(args, ++i, option), option));
                case "--relaunch" -> relaunch = OptionalDouble.of(nonNegativeSeconds(value(args, ++i, option), option));
                case "--repair" -> repair = OptionalDouble.of(nonNegativeSeconds(value(args, ++i, option), option));
                case "--replication-overhead" -> overhead = OptionalDouble.of(fraction(value(args, ++i, option), option, 10));
                case "--checkpoint-scaling" -> scaling = OptionalDouble.of(fraction(value(args, ++i, option), option, 2));
                case "--calibration" -> file = calibration(value(args, ++i, option));
                case "--work" -> work = Durations.parseSeconds(value(args, ++i, option), option);
                case "--shape" -> shape = positive(value(args, ++i, option), option);
                case "--strikes" -> strikes = strikes(value(args, ++i, option));
                case "--runs" -> runs = whole(value(args, ++i, option), option, 2);
                case "--seed" -> seed = seed(value(args, ++i, option));
                case "--spares" -> spares = whole(value(args, ++i, option), option, 0);
                case "--rollback-seconds" -> rollback = OptionalDouble.of(nonNegativeSeconds(value(args, ++i, option), option));
                case "--restore-replicas" -> restoreReplicas = onOff(value(args, ++i, option), option);
                case "--sdc-rate" -> sdcRate = rate(value(args, ++i, option), option);
                case "--sdc" -> compare = onOff(value(args, ++i, option), option);
                default -> throw new IllegalArgumentException("unknown argument \"" + option + "\"");
            }
        }
        if (processes == null) {
            throw new IllegalArgumentException("--processes is required");
        }
        if (perProcess.isPresent() == system.isPresent()) {
            throw new IllegalArgumentException("give exactly one of --mtbf-per-process and --system-mtbf");
        }
        if (checkpoint.isEmpty() && file == null) {
            throw new IllegalArgumentException("--checkpoint (the measured checkpoint time) or --calibration is required");
        }
        if (spares > 0 && rollback.isEmpty()) {
            throw new IllegalArgumentException("--spares needs --rollback-seconds (the measured time of an in-place "
                    + "rollback, from the loss of a rank to every rank back at work)");
        }
        if (spares == 0 && rollback.isPresent()) {
            throw new IllegalArgumentException("--rollback-seconds needs --spares (without a spare every interruption "
                    + "is a relaunch)");
        }
        if (spares == 0 && Boolean.TRUE.equals(restoreReplicas)) {
            throw new IllegalArgumentException("--restore-replicas on needs --spares");
        }
        if (spares > processes - 2) {
            throw new IllegalArgumentException("--spares " + spares + " leaves fewer than 2 of the " + processes
                    + " processes to compute");
        }
        Recovery recovery = new Recovery(spares, rollback.orElse(0), spares > 0 && !Boolean.FALSE.equals(restoreReplicas));
        SilentErrors silentErrors = SilentErrors.perProcessHour(sdcRate, compare);
        double mtbf = perProcess.isPresent() ? perProcess.getAsDouble() : system.getAsDouble() * processes;

        // costs: the file's where given, the options over them, measured at P ranks when given here
        Calibration base = file != null ? file
                : new Calibration(processes, checkpoint.getAsDouble(), DEFAULT_CHECKPOINT_SCALING,
                        checkpoint.getAsDouble(), ASSUMED_RELAUNCH_SECONDS, 1, 0.013, 0);
        int referenceRanks = checkpoint.isPresent() ? processes : base.referenceRanks();
        double c = checkpoint.orElse(base.checkpointSeconds());
        boolean restartAssumed = file == null && restart.isEmpty();
        double launch = relaunch.orElse(base.relaunchSeconds());
        double restore;
        if (restart.isPresent()) {
            if (relaunch.isPresent() && relaunch.getAsDouble() > restart.getAsDouble()) {
                throw new IllegalArgumentException("--relaunch (" + relaunch.getAsDouble()
                        + " s) cannot be longer than --restart (" + restart.getAsDouble() + " s)");
            }
            launch = Math.min(launch, restart.getAsDouble());
            restore = restart.getAsDouble() - launch;
        } else if (file == null) {
            restore = c;
        } else {   // the file's restore, moved to the rank count the checkpoint is now given at
            restore = base.restoreSeconds() * Math.pow((double) referenceRanks / base.referenceRanks(),
                    scaling.orElse(base.checkpointScaling()));
        }
        Calibration costs = new Calibration(referenceRanks, c, scaling.orElse(base.checkpointScaling()), restore,
                launch, repair.orElse(base.repairSeconds()), overhead.orElse(base.replicationOverhead()),
                base.logTrimFraction());
        return new PlanArguments(processes, mtbf, shape, strikes, work, costs, restartAssumed, runs, seed, recovery,
                silentErrors);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int whole(String text, String option, int least) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " must be a whole number >= " + least + ", not \"" + text + "\"");
    }

    private static long seed(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seed must be a whole number, not \"" + text + "\"");
        }
    }

    private static double nonNegativeSeconds(String text, String option) {
        if (text.strip().matches("0+(\\.0*)?[smhdy]?")) {
            return 0;
        }
        return Durations.parseSeconds(text, option);
    }

    private static double fraction(String text, String option, double most) {
        try {
            double f = Double.parseDouble(text.strip());
            if (f >= 0 && f <= most) {
                return f;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " must be a number in [0, " + most + "], not \"" + text + "\"");
    }

    private static double positive(String text, String option) {
        try {
            double v = Double.parseDouble(text.strip());
            if (v > 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " must be a number > 0, not \"" + text + "\"");
    }

    private static boolean onOff(String text, String option) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException(option + " takes on or off, not \"" + text + "\"");
        };
    }

    private static double rate(String text, String option) {
        try {
            double v = Double.parseDouble(text.strip());
            if (v >= 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " must be a number >= 0 (per process per hour), not \"" + text
                + "\"");
    }

    private static Strikes strikes(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "any" -> Strikes.ANY_PROCESS;
            case "live" -> Strikes.LIVE_PROCESSES;
            default -> throw new IllegalArgumentException("--strikes takes any or live, not \"" + text + "\"");
        };
    }

    private static Calibration calibration(String path) {
        try {
            return Calibration.load(Path.of(path));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read calibration file " + path + ": " + e.getMessage());
        }
    }
}
