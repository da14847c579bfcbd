package org.fthp.launcher.inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The failures fthp-run injects: deterministic kills ({@code --kill
 * RANK[:cmp|rep]@SECONDS}, several allowed) and a Weibull process
 * ({@code --inject weibull --mtbf S | --mtbf-per-process S [--shape K] [--seed S]}).
 */
public record KillPlan(List<ScheduledKill> kills, Optional<Weibull> weibull) {

    public static final KillPlan NONE = new KillPlan(List.of(), Optional.empty());

    /** Kill the given copy of a logical rank at a fixed time after launch. */
    public record ScheduledKill(int logicalRank, boolean replica, double atSeconds) {}

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
    }

    public boolean wanted() {
        return !kills.isEmpty() || weibull.isPresent();
    }

    /** Parses {@code RANK[:cmp|rep]@SECONDS}. */
    public static ScheduledKill parseKill(String spec) {
        int at = spec.indexOf('@');
        if (at <= 0 || at == spec.length() - 1) {
            throw new IllegalArgumentException("--kill takes RANK[:cmp|rep]@SECONDS, not \"" + spec + "\"");
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
            double seconds = Double.parseDouble(spec.substring(at + 1));
            if (rank < 0 || !(seconds >= 0)) {
                throw new NumberFormatException();
            }
            return new ScheduledKill(rank, replica, seconds);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--kill takes RANK[:cmp|rep]@SECONDS with RANK >= 0 and SECONDS >= 0, not \""
                    + spec + "\"");
        }
    }

    public static KillPlan of(List<ScheduledKill> kills, Weibull weibull) {
        return new KillPlan(new ArrayList<>(kills), Optional.ofNullable(weibull));
    }
}
