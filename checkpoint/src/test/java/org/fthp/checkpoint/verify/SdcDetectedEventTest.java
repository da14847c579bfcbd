package org.fthp.checkpoint.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class SdcDetectedEventTest {

    private static final Instant T = Instant.parse("2026-01-02T03:04:05.678Z");

    @Test
    void aCopysReasonForARollbackInPlace() {
        assertEquals("{\"time\":\"2026-01-02T03:04:05.678Z\",\"event\":\"sdc-detected\",\"logicalRank\":1,\"epoch\":3,"
                        + "\"what\":\"messages\",\"firstSendAfter\":75,\"action\":\"rollback\"}",
                SdcDetectedEvent.line(T, "silent data corruption detected: rank=1 epoch=3 what=messages"
                        + " firstSendAfter=75 (the twins of rank 1 differ in their messages after send 75)", "rollback"));
    }

    /** fthp-run's abort line holds fields of its own before the reason: the reason's are taken. */
    @Test
    void theReasonInsideAnAbortLine() {
        assertEquals("{\"time\":\"2026-01-02T03:04:05.678Z\",\"event\":\"sdc-detected\",\"logicalRank\":0,\"epoch\":-1,"
                        + "\"what\":\"state\",\"action\":\"abort\"}",
                SdcDetectedEvent.line(T, "job-aborted rank=5 code=6 reason=silent data corruption detected: rank=0"
                        + " epoch=-1 what=state (the twins of rank 0 differ in their state)", "abort"));
    }

    @Test
    void aTextWithoutFieldsStillMakesALine() {
        assertEquals("{\"time\":\"2026-01-02T03:04:05.678Z\",\"event\":\"sdc-detected\",\"what\":\"unknown\","
                + "\"action\":\"abort\"}", SdcDetectedEvent.line(T, "silent data corruption detected:", "abort"));
        assertEquals("{\"time\":\"2026-01-02T03:04:05.678Z\",\"event\":\"sdc-detected\",\"what\":\"a\\\"b\","
                + "\"action\":\"abort\"}", SdcDetectedEvent.line(T, "what=a\"b rank=x", "abort"));
    }
}
