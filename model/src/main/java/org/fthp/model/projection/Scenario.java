package org.fthp.model.projection;

import java.util.ArrayList;
import java.util.List;
import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.strategy.Machine;

/**
 * One projection: a machine's reliability, a job's length and costs, and the
 * process counts to project it to.
 *
 * @param name      file name stem of its CSV and PNGs
 * @param title     what the plots say it is
 * @param processes the process counts, ascending
 * @param degree    share of ranks the replication strategies replicate (1: all)
 */
public record Scenario(String name, String title, double mtbfPerProcessSeconds, double shape, Strikes strikes,
                       double workSeconds, Calibration calibration, List<Integer> processes, double degree) {

    public Scenario {
        processes = List.copyOf(processes);
        if (processes.isEmpty()) {
            throw new IllegalArgumentException("a scenario needs at least one process count");
        }
        for (int i = 1; i < processes.size(); i++) {
            if (processes.get(i) <= processes.get(i - 1)) {
                throw new IllegalArgumentException("process counts must ascend: " + processes);
            }
        }
    }

    public Machine machine(int processCount) {
        return new Machine(processCount, mtbfPerProcessSeconds, shape, strikes);
    }

    /** 1024, 2048, …, up to {@code last}. */
    public static List<Integer> doublingFrom1024(int last) {
        List<Integer> out = new ArrayList<>();
        for (long p = 1024; p <= last; p *= 2) {
            out.add((int) p);
        }
        return out;
    }
}
