package org.fthp.coordinator.testing;

import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.node.NodeCoordinator;

/**
 * The job events a primary reports, one string each, in order: {@code "epoch E: [R cause, ...]"},
 * {@code "host N: [R, ...]"}, {@code "ended"}, {@code "abort R: reason"}.
 */
public final class JobEventLog {

    private JobEventLog() {}

    /** Starts recording {@code primary}'s events; a test polls the queue for the next one. */
    public static LinkedBlockingQueue<String> of(NodeCoordinator primary) {
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        primary.setJobEvents(new JobEvents() {
            @Override
            public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) {
                seen.add("epoch " + epoch + ": " + newlyFailed.stream()
                        .map(f -> f.nativeRank() + " " + f.cause()).toList());
            }

            @Override
            public void hostLost(int node, List<FailedProcess> failed) {
                seen.add("host " + node + ": " + failed.stream().map(FailedProcess::nativeRank).toList());
            }

            @Override
            public void processesEnded() {
                seen.add("ended");
            }

            @Override
            public void jobAborted(String reason, int lostRank) {
                seen.add("abort " + lostRank + ": " + reason);
            }
        });
        return seen;
    }
}
