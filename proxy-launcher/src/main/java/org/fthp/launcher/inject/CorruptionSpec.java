package org.fthp.launcher.inject;

import java.util.Locale;

/**
 * One {@code --corrupt R[:cmp|rep][:state|msg]@SECONDS} or {@code ...#CALL}: one bit flipped in that copy of logical
 * rank R, in a registered array element ({@code state}, the default) or in the payload of the next message it sends
 * ({@code msg}), at a time after launch or as it enters its CALL-th MPI call (the ranks do it themselves).
 *
 * @param atSeconds seconds after the rank's MPI_Init, or -1 when {@code call} says when
 * @param call      the MPI call, or 0 when {@code atSeconds} says when
 */
public record CorruptionSpec(int logicalRank, boolean replica, boolean message, double atSeconds, long call) {

    private static final String FORM = "--corrupt takes RANK[:cmp|rep][:state|msg]@SECONDS or "
            + "RANK[:cmp|rep][:state|msg]#CALL (RANK >= 0, SECONDS >= 0, CALL >= 1), not \"";

    public static CorruptionSpec parse(String spec) {
        int at = spec.indexOf('@');
        boolean byCall = at < 0;
        if (byCall) {
            at = spec.indexOf('#');
        }
        if (at <= 0 || at == spec.length() - 1) {
            throw new IllegalArgumentException(FORM + spec + "\"");
        }
        String[] who = spec.substring(0, at).split(":", -1);
        if (who.length > 3) {
            throw new IllegalArgumentException(FORM + spec + "\"");
        }
        boolean replica = false;
        boolean message = false;
        boolean roleSeen = false;
        boolean targetSeen = false;
        for (int i = 1; i < who.length; i++) {
            switch (who[i]) {
                case "cmp", "rep" -> {
                    if (roleSeen || targetSeen) {
                        throw new IllegalArgumentException(FORM + spec + "\"");
                    }
                    roleSeen = true;
                    replica = who[i].equals("rep");
                }
                case "state", "msg" -> {
                    if (targetSeen) {
                        throw new IllegalArgumentException(FORM + spec + "\"");
                    }
                    targetSeen = true;
                    message = who[i].equals("msg");
                }
                default -> throw new IllegalArgumentException("--corrupt knows cmp|rep and state|msg, not \""
                        + who[i] + "\" (in \"" + spec + "\")");
            }
        }
        try {
            int rank = Integer.parseInt(who[0]);
            if (rank < 0) {
                throw new NumberFormatException();
            }
            if (byCall) {
                long call = Long.parseLong(spec.substring(at + 1));
                if (call < 1) {
                    throw new NumberFormatException();
                }
                return new CorruptionSpec(rank, replica, message, -1, call);
            }
            double seconds = Double.parseDouble(spec.substring(at + 1));
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                throw new NumberFormatException();
            }
            return new CorruptionSpec(rank, replica, message, seconds, 0);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(FORM + spec + "\"");
        }
    }

    /** The native rank of that copy: a replica of logical rank R is native rank ranks + R. */
    public int nativeRank(int ranks) {
        return replica ? ranks + logicalRank : logicalRank;
    }

    /** {@code NATIVE:state|msg:@S|#C}, the ranks' FTHP_CORRUPT entry. */
    public String forRanks(int ranks) {
        return nativeRank(ranks) + ":" + (message ? "msg" : "state") + ":"
                + (call > 0 ? "#" + call : String.format(Locale.ROOT, "@%.3f", atSeconds));
    }
}
