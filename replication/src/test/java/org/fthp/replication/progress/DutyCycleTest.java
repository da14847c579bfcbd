package org.fthp.replication.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DutyCycleTest {

    /** Records what a wait asked of its idle strategy. */
    private static final class RecordingIdle implements IdleStrategy {
        final List<String> calls = new ArrayList<>();

        @Override
        public void idle() {
            calls.add("idle");
        }

        @Override
        public void reset() {
            calls.add("reset");
        }
    }

    @Test
    void aConditionAlreadyTrueTakesNoTurn() {
        int[] turns = {0};
        new DutyCycle(() -> ++turns[0], RecordingIdle::new).await(() -> true);
        assertEquals(0, turns[0]);
    }

    @Test
    void turnsThatDidWorkResetTheIdleStrategyAndFruitlessOnesIdle() {
        RecordingIdle idle = new RecordingIdle();
        int[] work = {0, 3, 0, 0};
        int[] turn = {0};
        DutyCycle.await(() -> turn[0] == work.length, () -> work[turn[0]++], idle);
        assertEquals(List.of("reset", "idle", "reset", "idle", "idle"), idle.calls);
    }

    @Test
    void waitsOneAfterAnotherShareAnIdleStrategyResetForEach() {
        List<RecordingIdle> made = new ArrayList<>();
        DutyCycle duty = new DutyCycle(() -> 0, () -> {
            RecordingIdle i = new RecordingIdle();
            made.add(i);
            return i;
        });
        int[] polls = {0};
        duty.await(() -> ++polls[0] > 2);
        polls[0] = 0;
        duty.await(() -> ++polls[0] > 2);
        assertEquals(1, made.size());
        // each wait starts from a reset strategy: the second knows nothing of the first's fruitless turns
        assertEquals(List.of("reset", "idle", "reset", "idle"), made.get(0).calls);
    }

    @Test
    void aWaitInsideAWaitGetsItsOwnIdleStrategy() {
        List<RecordingIdle> made = new ArrayList<>();
        DutyCycle[] duty = {null};
        boolean[] nested = {false};
        duty[0] = new DutyCycle(() -> {
            if (!nested[0]) {
                nested[0] = true;
                int[] inner = {0};
                duty[0].await(() -> ++inner[0] > 2);
            }
            return 0;
        }, () -> {
            RecordingIdle i = new RecordingIdle();
            made.add(i);
            return i;
        });
        int[] polls = {0};
        duty[0].await(() -> ++polls[0] > 3);
        assertEquals(2, made.size());
        // and the outer one's is what the next wait takes
        polls[0] = 0;
        duty[0].await(() -> ++polls[0] > 2);
        assertEquals(2, made.size());
    }

    @Test
    void aConditionThatThrowsAbandonsTheWait() {
        DutyCycle duty = new DutyCycle(() -> 0, RecordingIdle::new);
        int[] polls = {0};
        assertThrows(IllegalStateException.class, () -> duty.await(() -> {
            if (++polls[0] == 3) {
                throw new IllegalStateException("superseded");
            }
            return false;
        }));
        assertEquals(3, polls[0]);
    }

    /** The wait loop of one kind: the general one, the requests' or the collectives'. */
    private static BiConsumer<DutyCycle, BooleanSupplier> loop(String kind) {
        return switch (kind) {
            case "requests" -> DutyCycle::awaitRequests;
            case "collective" -> DutyCycle::awaitCollective;
            default -> DutyCycle::await;
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"general", "requests", "collective"})
    void everyKindOfWaitTakesTurnsUntilDoneWithTheSpareIdleStrategy(String kind) {
        List<RecordingIdle> made = new ArrayList<>();
        int[] turns = {0};
        DutyCycle duty = new DutyCycle(() -> ++turns[0] == 2 ? 1 : 0, () -> {
            RecordingIdle i = new RecordingIdle();
            made.add(i);
            return i;
        });
        loop(kind).accept(duty, () -> turns[0] == 3);
        assertEquals(3, turns[0]);
        // a fruitless turn idles, the second turn's work resets
        assertEquals(List.of("reset", "idle", "reset", "idle"), made.get(0).calls);
        loop(kind).accept(duty, () -> turns[0] == 4);
        assertEquals(1, made.size(), "the next wait takes the same strategy");
    }

    @ParameterizedTest
    @ValueSource(strings = {"general", "requests", "collective"})
    void aWaitOfAnyKindInsideAnotherGetsItsOwnIdleStrategyAndAThrowEndsIt(String kind) {
        List<RecordingIdle> made = new ArrayList<>();
        DutyCycle[] duty = {null};
        int[] innerPolls = {0};
        duty[0] = new DutyCycle(() -> {
            if (innerPolls[0] == 0) {   // the inner wait's turns do not wait again
                loop(kind).accept(duty[0], () -> {
                    if (++innerPolls[0] == 2) {
                        throw new IllegalStateException("rolled back");
                    }
                    return false;
                });
            }
            return 0;
        }, () -> {
            RecordingIdle i = new RecordingIdle();
            made.add(i);
            return i;
        });
        assertThrows(IllegalStateException.class, () -> loop(kind).accept(duty[0], () -> false));
        assertEquals(2, made.size());
        loop(kind).accept(duty[0], () -> true);
        assertEquals(2, made.size(), "the outer wait gave its strategy back");
    }

    @Test
    void theDutyIsWhatDoWorkRuns() {
        assertEquals(5, new DutyCycle(() -> 5, RecordingIdle::new).doWork());
    }
}
