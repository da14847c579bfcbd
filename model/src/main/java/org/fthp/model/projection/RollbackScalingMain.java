package org.fthp.model.projection;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a rollback's measured split projected to larger jobs (RollbackScaling) as a Markdown table.
 *
 * <pre>
 * RollbackScalingMain --split D,A,U,R,B,S --processes P --nodes N [--group-size G] [--per-node K]
 *                     [--per-message SECONDS] [--rounds R] [--at P1,P2,...]
 * </pre>
 *
 * The split is bench/checkpoint.sh's (detection, agreement, unwind, rebuild, body setup, state load, seconds) at
 * P processes on N nodes; the projection puts K processes on a node (default 32). Exit 2 on bad arguments.
 */
public final class RollbackScalingMain {

    private RollbackScalingMain() {}

    public static void main(String[] args) {
        try {
            System.out.print(run(args));
        } catch (IllegalArgumentException e) {
            System.err.println("rollback-scaling: " + e.getMessage());
            System.exit(2);
        }
    }

    static String run(String[] args) {
        double[] split = null;
        int processes = -1;
        int nodes = -1;
        int groupSize = 32;
        int perNode = 32;
        double perMessage = 2e-6;
        int rounds = 3;
        List<Integer> at = List.of(17, 1_000, 10_000, 100_000);
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args[++i];
            try {
                switch (option) {
                    case "--split" -> {
                        String[] parts = value.split(",");
                        if (parts.length != 6) {
                            throw new IllegalArgumentException("--split needs 6 comma-separated seconds");
                        }
                        split = new double[6];
                        for (int k = 0; k < 6; k++) {
                            split[k] = Double.parseDouble(parts[k].strip());
                        }
                    }
                    case "--processes" -> processes = Integer.parseInt(value);
                    case "--nodes" -> nodes = Integer.parseInt(value);
                    case "--group-size" -> groupSize = Integer.parseInt(value);
                    case "--per-node" -> perNode = Integer.parseInt(value);
                    case "--per-message" -> perMessage = Double.parseDouble(value);
                    case "--rounds" -> rounds = Integer.parseInt(value);
                    case "--at" -> {
                        List<Integer> list = new ArrayList<>();
                        for (String p : value.split(",")) {
                            list.add(Integer.parseInt(p.strip()));
                        }
                        at = list;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": not a number: " + value);
            }
        }
        if (split == null || processes < 0 || nodes < 0) {
            throw new IllegalArgumentException("--split, --processes and --nodes are required");
        }
        if (perNode < 1) {
            throw new IllegalArgumentException("--per-node must be >= 1");
        }
        RollbackScaling scaling = new RollbackScaling(new RollbackScaling.Split(split[0], split[1], split[2],
                split[3], split[4], split[5]), processes, nodes, groupSize, perMessage, rounds);
        StringBuilder out = new StringBuilder();
        out.append("| processes | nodes | detection | agreement | unwind | rebuild | body setup | state load | total |\n");
        out.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        row(out, processes, nodes, scaling.measured(), " (measured)");
        for (int p : at) {
            int n = Math.max(1, (p + perNode - 1) / perNode);
            row(out, p, n, scaling.at(p, n), "");
        }
        return out.toString();
    }

    private static void row(StringBuilder out, int processes, int nodes, RollbackScaling.Split s, String note) {
        out.append(String.format(Locale.ROOT, "| %d%s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
                processes, note, nodes, s.detection(), s.agreement(), s.unwind(), s.rebuild(), s.bodySetup(),
                s.stateLoad(), s.total()));
    }
}
