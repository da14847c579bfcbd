package org.fthp.coordinator.event;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogTest {

    @TempDir
    Path dir;

    @Test
    void writesOneJsonObjectPerEventAndAppends() throws Exception {
        Path file = dir.resolve("events.jsonl");
        Clock clock = Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC);
        try (EventLog log = new EventLog(file, clock)) {
            log.failuresDetected(1, List.of(new FailedProcess(123, 5, 1, Role.REP, "connection \"lost\"")));
        }
        try (EventLog log = new EventLog(file, clock)) {
            log.jobAborted("logical rank 1 lost all its copies", 1);
            log.jobAborted("a process (pid 77) died before it registered", JobEvents.NO_RANK);
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(List.of(
                "{\"time\":\"2026-11-22T12:00:00Z\",\"event\":\"failure-detected\",\"epoch\":1,\"pid\":123,"
                        + "\"nativeRank\":5,\"logicalRank\":1,\"role\":\"REP\",\"cause\":\"connection \\\"lost\\\"\"}",
                "{\"time\":\"2026-11-22T12:00:00Z\",\"event\":\"job-aborted\",\"logicalRank\":1,"
                        + "\"reason\":\"logical rank 1 lost all its copies\"}",
                "{\"time\":\"2026-11-22T12:00:00Z\",\"event\":\"job-aborted\","
                        + "\"reason\":\"a process (pid 77) died before it registered\"}"), lines);
    }

    @Test
    void quotesControlCharacters() {
        assertEquals("\"a\\nb\\u0001\\\\\"", EventLog.quote("a\nb\u0001\\"));
    }
}
