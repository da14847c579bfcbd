package org.fthp.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.client.FailureListener;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobShape;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.node.Hierarchy;
import org.fthp.coordinator.wire.JobSecret;

/**
 * Failure notification latency of the coordinator hierarchy: from a process's
 * connection closing (what a kill looks like to its coordinator) until every
 * surviving process has the new failure set. 16 processes (N = 8, M = 8) on 4
 * emulated nodes in groups of 2, all over loopback TCP in this JVM; each
 * round kills the 8 replicas one by one, rounds repeat until 50 kills.
 *
 * <pre>java -cp bench.jar:fthp-mpi.jar org.fthp.bench.CoordinatorLatency [kills]</pre>
 */
public final class CoordinatorLatency {

    private CoordinatorLatency() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("io.netty.noUnsafe", "true");
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        int kills = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int n = 8;
        int m = 8;
        int nodes = 4;
        List<Double> millis = new ArrayList<>();
        while (millis.size() < kills) {
            JobSecret secret = JobSecret.generate();
            try (Hierarchy h = Hierarchy.start(nodes, 2, new JobShape(n, m), secret)) {
                int total = n + m;
                int perNode = total / nodes;
                ConcurrentHashMap<Long, long[]> arrivals = new ConcurrentHashMap<>();
                List<CoordinatorClient> clients = new ArrayList<>();
                List<CountDownLatch[]> latches = new ArrayList<>();
                for (int r = 0; r < total; r++) {
                    CountDownLatch[] perEpoch = new CountDownLatch[m + 1];
                    for (int e = 0; e <= m; e++) {
                        perEpoch[e] = new CountDownLatch(1);
                    }
                    latches.add(perEpoch);
                    int rank = r;
                    FailureListener l = new FailureListener() {
                        @Override
                        public void onFailureSet(long epoch, List<FailedProcess> failed) {
                            if (epoch <= m) {
                                arrivals.computeIfAbsent(epoch, k -> new long[total])[rank] = System.nanoTime();
                                perEpoch[(int) epoch].countDown();
                            }
                        }

                        @Override
                        public void onJobAbort(String reason, int lostRank) {
                        }
                    };
                    clients.add(CoordinatorClient.builder().coordinator(h.address(r / perNode)).secret(secret)
                            .pid(100_000 + r).ranks(r, r < n ? r : r - n, r < n ? Role.CMP : Role.REP)
                            .listener(l).connect());
                }
                int killed = 0;
                for (int k = 0; k < m && millis.size() < kills; k++) {
                    int victim = n + k;   // the replicas: every rank keeps a copy, so no abort
                    killed++;
                    long start = System.nanoTime();
                    clients.get(victim).close();
                    long last = start;
                    for (int r = 0; r < total; r++) {
                        if (r >= n && r <= victim) {
                            continue;   // already dead
                        }
                        if (!latches.get(r)[k + 1].await(10, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("rank " + r + " never heard of epoch " + (k + 1));
                        }
                        last = Math.max(last, arrivals.get((long) (k + 1))[r]);
                    }
                    millis.add((last - start) / 1e6);
                }
                for (int r = 0; r < total; r++) {
                    if (r < n || r >= n + killed) {
                        clients.get(r).finish();   // the survivors end normally, or their threads keep the JVM up
                    }
                }
            }
        }
        double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        System.out.printf(Locale.ROOT, "coordinator notification latency (kill -> every survivor), %d kills, "
                + "16 processes, 4 nodes, groups of 2: median %.2f ms, p90 %.2f ms, max %.2f ms%n",
                sorted.length, sorted[sorted.length / 2], sorted[(int) (sorted.length * 0.9)],
                sorted[sorted.length - 1]);
        System.out.println("all: " + Arrays.toString(Arrays.stream(sorted).map(v -> Math.round(v * 100) / 100.0).toArray()));
    }
}
