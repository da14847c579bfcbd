package org.fthp.coordinator.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;

import org.fthp.coordinator.event.JobShape;
import org.fthp.model.CheckpointInterval;
import org.fthp.model.JobMtti;
import org.junit.jupiter.api.Test;

class IntervalPolicyTest {
    private static final JobShape SHAPE = new JobShape(8, 4);

    @Test
    void fixedIsWhatWasAsked() {
        assertEquals(12.5, IntervalPolicy.parse("12.5", OptionalDouble.empty())
                .decide(new IntervalPolicy.Inputs(SHAPE, OptionalDouble.of(3), 2, 100)).orElseThrow().seconds());
        assertTrue(IntervalPolicy.parse("none", OptionalDouble.empty())
                .decide(new IntervalPolicy.Inputs(SHAPE, OptionalDouble.empty(), 0, 0)).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> IntervalPolicy.parse("soon", OptionalDouble.empty()));
        assertThrows(IllegalArgumentException.class, () -> IntervalPolicy.parse("-1", OptionalDouble.empty()));
    }

    @Test
    void autoIsDalysIntervalFromTheMeasuredCostAndTheJobsMtti() {
        IntervalPolicy auto = IntervalPolicy.parse("auto", OptionalDouble.of(3600));
        IntervalPolicy.Decision d = auto.decide(new IntervalPolicy.Inputs(SHAPE, OptionalDouble.of(2.0), 0, 10))
                .orElseThrow();
        double mtti = JobMtti.exponential(8, 4, 3600);
        assertEquals(CheckpointInterval.daly(2.0, mtti), d.seconds(), 1e-9);
        assertTrue(d.basis().contains("Daly"), d.basis());
        // more replicas, longer MTTI, longer interval
        double full = auto.decide(new IntervalPolicy.Inputs(new JobShape(8, 8), OptionalDouble.of(2.0), 0, 10))
                .orElseThrow().seconds();
        assertTrue(full > d.seconds(), full + " vs " + d.seconds());
    }

    @Test
    void withoutAGivenMtbfTheFailuresSeenSetIt() {
        IntervalPolicy auto = IntervalPolicy.parse("auto", OptionalDouble.empty());
        double seen = auto.decide(new IntervalPolicy.Inputs(SHAPE, OptionalDouble.of(0.5), 3, 300)).orElseThrow()
                .seconds();
        // 300 s run by 12 processes with 3 failures: 1200 s per process
        assertEquals(CheckpointInterval.daly(0.5, JobMtti.exponential(8, 4, 1200)), seen, 1e-9);
        double prior = auto.decide(new IntervalPolicy.Inputs(SHAPE, OptionalDouble.empty(), 0, 300)).orElseThrow()
                .seconds();
        assertEquals(CheckpointInterval.daly(IntervalPolicy.Auto.ASSUMED_FIRST_COST_SECONDS,
                JobMtti.exponential(8, 4, IntervalPolicy.Auto.PRIOR_MTBF_PER_PROCESS_SECONDS)), prior, 1e-9);
        double floor = auto.decide(new IntervalPolicy.Inputs(SHAPE, OptionalDouble.of(1e-5), 1000, 1)).orElseThrow()
                .seconds();
        assertEquals(IntervalPolicy.MIN_SECONDS, floor);
    }
}
