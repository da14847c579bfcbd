package org.fthp.model.projection;

/**
 * How an in-place rollback's time grows with the job, each measured step scaled by what it is made of
 * (docs/DESIGN.md, "Rollback in place"):
 * <ul>
 *   <li><b>detection</b>: a node coordinator sees its own process's connection close: independent of the job;</li>
 *   <li><b>agreement</b>: the failure goes up the coordinator tree to the primary, the rollback comes down it:
 *       {@link #hops} one-way latencies, plus the primary's and a group leader's sends to their children one after
 *       the other;</li>
 *   <li><b>unwind</b>: each survivor unwinds its own stack: independent;</li>
 *   <li><b>rebuild</b>: the readiness round and the entry rounds before each blocking creation, then the
 *       generation's communicators, whose context-id agreements are allreduces: {@code log2(processes)} message
 *       latencies each. A round among up to {@link #ALL_TO_ALL_UP_TO} processes is one message to every other
 *       member, above that a dissemination barrier of {@code ceil(log2 processes)} steps ({@link #roundMessages};
 *       replication.creation.ArrivalRounds);</li>
 *   <li><b>body setup</b> and <b>state load</b>: each rank rebuilds its own communicators and loads its own piece
 *       from the nearest coordinator that holds it: independent.</li>
 * </ul>
 *
 * @param measured           the split measured with {@code measuredProcesses} processes on {@code measuredNodes}
 *                           nodes (seconds)
 * @param groupSize          coordinator nodes per group (the hierarchy's second level)
 * @param perMessageSeconds  a process's cost to post and complete one small message of a round
 * @param rebuildRounds      rounds a rollback makes over every copy (readiness, entries before the eworld and the
 *                           sides)
 */
public record RollbackScaling(Split measured, int measuredProcesses, int measuredNodes, int groupSize,
                              double perMessageSeconds, int rebuildRounds) {

    /** A rollback's steps (seconds), as bench/checkpoint.sh's rollback part reports them. */
    public record Split(double detection, double agreement, double unwind, double rebuild, double bodySetup,
                        double stateLoad) {

        public Split {
            for (double s : new double[] {detection, agreement, unwind, rebuild, bodySetup, stateLoad}) {
                if (!(s >= 0) || Double.isInfinite(s)) {
                    throw new IllegalArgumentException("a step's seconds must be finite and >= 0, not " + s);
                }
            }
        }

        public double total() {
            return detection + agreement + unwind + rebuild + bodySetup + stateLoad;
        }
    }

    public RollbackScaling {
        if (measuredProcesses < 2 || measuredNodes < 1 || measuredNodes > measuredProcesses || groupSize < 1
                || rebuildRounds < 1) {
            throw new IllegalArgumentException("need measured processes >= 2, 1 <= nodes <= processes, group size"
                    + " >= 1 and rounds >= 1");
        }
        if (!(perMessageSeconds >= 0) || Double.isInfinite(perMessageSeconds)) {
            throw new IllegalArgumentException("per-message seconds must be finite and >= 0");
        }
    }

    /** One-way coordinator hops of an agreement: up to the primary and back down, through a leader when grouped. */
    int hops(int nodes) {
        if (nodes <= 1) {
            return 2;
        }
        return nodes <= groupSize ? 2 : 4;
    }

    /** Sends one after the other on the agreement's way down: the primary's children, then a leader's. */
    int fanOut(int nodes) {
        if (nodes <= groupSize) {
            return nodes - 1;
        }
        int groups = (nodes + groupSize - 1) / groupSize;
        return groups - 1 + groupSize - 1;
    }

    /** Where the runtime's rounds go from one message to every member to a dissemination barrier. */
    static final int ALL_TO_ALL_UP_TO = 32;

    /**
     * Messages each process goes through in the rebuild's rounds at {@code processes}: one to every other copy per
     * round, or the dissemination barrier's steps, one after the other.
     */
    long roundMessages(int processes) {
        int steps = 32 - Integer.numberOfLeadingZeros(processes - 1);
        return (long) rebuildRounds * (processes <= ALL_TO_ALL_UP_TO ? processes - 1 : steps);
    }

    /** The split projected to {@code processes} on {@code nodes} nodes. */
    public Split at(int processes, int nodes) {
        if (processes < 2 || nodes < 1 || nodes > processes) {
            throw new IllegalArgumentException("need processes >= 2 and 1 <= nodes <= processes");
        }
        Split m = measured;
        double perHop = m.agreement() / hops(measuredNodes);
        double agreement = perHop * hops(nodes)
                + perMessageSeconds * Math.max(0, fanOut(nodes) - fanOut(measuredNodes));
        double rounds = perMessageSeconds * (roundMessages(processes) - roundMessages(measuredProcesses));
        double logScaled = (m.rebuild() - perMessageSeconds * roundMessages(measuredProcesses))
                * log2(processes) / log2(measuredProcesses);
        double rebuild = Math.max(0, logScaled) + perMessageSeconds * roundMessages(measuredProcesses) + rounds;
        return new Split(m.detection(), agreement, m.unwind(), rebuild, m.bodySetup(), m.stateLoad());
    }

    private static double log2(int n) {
        return Math.log(n) / Math.log(2);
    }
}
