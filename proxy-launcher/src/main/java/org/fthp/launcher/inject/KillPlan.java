package org.fthp.launcher.inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The failures fthp-run injects: deterministic kills at a time ({@code --kill
 * RANK[:cmp|rep]@SECONDS}, or of a waiting spare, {@code --kill spare:S@SECONDS})
 * or at a point of the program ({@code --kill RANK[:cmp|rep]#CALL}), several
 * allowed, and a Weibull process
 * ({@code --inject weibull --mtbf S | --mtbf-per-process S [--shape K] [--seed S]}).
 */
public record KillPlan(List<ScheduledKill> kills, List<CallKill> callKills, Optional<Weibull> weibull) {

    public static final KillPlan NONE = new KillPlan(List.of(), List.of(), Optional.empty());

    /** One {@code --kill}. */
    public sealed interface Kill permits ScheduledKill, CallKill {
        int logicalRank();

        boolean replica();
    }

    /**
     * Kill the given copy of a logical rank at a fixed time after launch; with {@code spare}, spare number
     * {@code logicalRank} (native rank N + M + that) instead, which makes no MPI call to be killed at.
     */
    public record ScheduledKill(int logicalRank, boolean replica, double atSeconds, boolean spare) implements Kill {

        public ScheduledKill(int logicalRank, boolean replica, double atSeconds) {
            this(logicalRank, replica, atSeconds, false);
        }
    }

    /**
     * The given copy of a logical rank kills itself (SIGKILL) as it enters its
     * {@code call}-th MPI call after MPI_Init: the same point of the program
     * in every run, however fast the machine is.
     */
    public record CallKill(int logicalRank, boolean replica, long call) implements Kill {}

    /**
     * Random kills: {@code mtbfSeconds} is the system MTBF, or the per-process
     * one (divided by the process count at run time) when {@code perProcess}.
     */
    public record Weibull(double mtbfSeconds, boolean perProcess, double shape, long seed) {

        public double systemMtbf(int processes) {
            return perProcess ? mtbfSeconds / processes : mtbfSeconds;
        }
    }

    public KillPlan {
        kills = List.copyOf(kills);
        callKills = List.copyOf(callKills);
    }

    public boolean wanted() {
        return !kills.isEmpty() || !callKills.isEmpty() || weibull.isPresent();
    }

    /** Whether fthp-run itself has to kill anything (call kills are the ranks' own). */
    public boolean injectorWanted() {
        return !kills.isEmpty() || weibull.isPresent();
    }

    /** Parses {@code RANK[:cmp|rep]@SECONDS}, {@code spare:S@SECONDS} or {@code RANK[:cmp|rep]#CALL}. */
    public static Kill parseKill(String spec) {
        if (spec.startsWith(SPARE)) {
            return parseSpareKill(spec);
        }
        int at = spec.indexOf('@');
        boolean byCall = at < 0;
        if (byCall) {
            at = spec.indexOf('#');
        }
        if (at <= 0 || at == spec.length() - 1) {
            throw new IllegalArgumentException("--kill takes RANK[:cmp|rep]@SECONDS or RANK[:cmp|rep]#CALL, not \""
                    + spec + "\"");
        }
        String who = spec.substring(0, at);
        boolean replica = false;
        int colon = who.indexOf(':');
        if (colon >= 0) {
            String role = who.substring(colon + 1);
            if (!role.equals("cmp") && !role.equals("rep")) {
                throw new IllegalArgumentException("--kill role must be cmp or rep, not \"" + role + "\"");
            }
            replica = role.equals("rep");
            who = who.substring(0, colon);
        }
        try {
            int rank = Integer.parseInt(who);
            if (byCall) {
                long call = Long.parseLong(spec.substring(at + 1));
                if (rank < 0 || call < 1) {
                    throw new NumberFormatException();
                }
                return new CallKill(rank, replica, call);
            }
            double seconds = Double.parseDouble(spec.substring(at + 1));
            if (rank < 0 || !(seconds >= 0)) {
                throw new NumberFormatException();
            }
            return new ScheduledKill(rank, replica, seconds);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--kill takes RANK[:cmp|rep]@SECONDS (RANK >= 0, SECONDS >= 0) or "
                    + "RANK[:cmp|rep]#CALL (CALL >= 1), not \"" + spec + "\"");
        }
    }

    private static final String SPARE = "spare:";

    private static ScheduledKill parseSpareKill(String spec) {
        int at = spec.indexOf('@');
        try {
            if (at < 0) {
                throw new NumberFormatException();
            }
            int spare = Integer.parseInt(spec.substring(SPARE.length(), at));
            double seconds = Double.parseDouble(spec.substring(at + 1));
            if (spare < 0 || !(seconds >= 0)) {
                throw new NumberFormatException();
            }
            return new ScheduledKill(spare, false, seconds, true);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--kill takes spare:S@SECONDS (S >= 0, SECONDS >= 0) for a spare, not \""
                    + spec + "\"");
        }
    }

    public static KillPlan of(List<? extends Kill> kills, Weibull weibull) {
        List<ScheduledKill> timed = new ArrayList<>();
        List<CallKill> byCall = new ArrayList<>();
        for (Kill k : kills) {
            switch (k) {
                case ScheduledKill t -> timed.add(t);
                case CallKill c -> byCall.add(c);
            }
        }
        return new KillPlan(timed, byCall, Optional.ofNullable(weibull));
    }

    /**
     * The call kills for the ranks, as {@code NATIVE:CALL} pairs separated by
     * commas ({@code FTHP_KILL_AT_CALL}); empty when there are none.
     */
    public String callKillsByNativeRank(int logicalRanks) {
        StringBuilder b = new StringBuilder();
        for (CallKill k : callKills) {
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(k.replica() ? logicalRanks + k.logicalRank() : k.logicalRank()).append(':').append(k.call());
        }
        return b.toString();
    }
}
