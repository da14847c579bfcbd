package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.testing.EmulatedJob;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The primary reports each newly detected failure once, with its epoch, and the abort. */
@Timeout(30)
class JobEventsTest {

    private EmulatedJob job;

    @AfterEach
    void tearDown() {
        if (job != null) {
            job.close();
        }
    }

    @Test
    void eachFailureIsReportedOnceWithItsEpochThenTheAbort() throws Exception {
        job = new EmulatedJob(2, 2, 2, 1, Duration.ofSeconds(5));   // logical 0 replicated, logical 1 not
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        job.hierarchy.node(0).setJobEvents(new JobEvents() {
            @Override
            public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) {
                for (FailedProcess f : newlyFailed) {
                    seen.add(epoch + ":" + f.nativeRank());
                }
            }

            @Override
            public void jobAborted(String reason, int lostRank) {
                seen.add("abort:" + lostRank);
            }
        });
        job.clients.get(2).close();   // native 2 = the replica of logical 0
        assertEquals("1:2", seen.poll(5, TimeUnit.SECONDS));
        job.clients.get(1).close();   // native 1 = logical 1, which has no replica
        assertEquals("2:1", seen.poll(5, TimeUnit.SECONDS));
        assertEquals("abort:1", seen.poll(5, TimeUnit.SECONDS));
    }

    @Test
    void aProgramEndFromAnyNodeEndsTheJobWithItsCodeAndNothingAfterIsAFailure() throws Exception {
        job = new EmulatedJob(2, 2, 2, 2, Duration.ofSeconds(5));   // native 3 (the replica of logical 1) on node 1
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        job.hierarchy.node(0).setJobEvents(new JobEvents() {
            @Override
            public void failuresDetected(long epoch, List<FailedProcess> newlyFailed) {
                for (FailedProcess f : newlyFailed) {
                    seen.add(epoch + ":" + f.nativeRank());
                }
            }

            @Override
            public void jobAborted(String reason, int lostRank) {
                seen.add("abort:" + lostRank);
            }

            @Override
            public void programEnded(String reason, int rank, int exitCode) {
                seen.add("end:" + rank + ":" + exitCode + ":" + reason);
            }
        });
        job.clients.get(3).programEnded(1, 7, "rank 1 called System.exit(7)", Duration.ofSeconds(5));
        assertEquals("end:1:7:rank 1 called System.exit(7)", seen.poll(5, TimeUnit.SECONDS));
        for (var l : job.listeners) {
            assertEquals(1, l.awaitAbort(Duration.ofSeconds(5)).lostRank());   // the reporter hears it too
        }
        // the reporter goes, then the others are ended: a verdict, not failures to repair
        job.clients.get(3).close();
        job.clients.get(1).close();
        job.clients.get(0).programEnded(0, 1, "a second end", Duration.ofSeconds(5));
        assertEquals(null, seen.poll(1, TimeUnit.SECONDS));
    }
}
