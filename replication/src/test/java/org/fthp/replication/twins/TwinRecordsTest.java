package org.fthp.replication.twins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.fthp.replication.twins.TwinRecords;
import org.junit.jupiter.api.Test;

class TwinRecordsTest {

    private static TwinRecords forwardedTags(int n) {
        TwinRecords r = new TwinRecords();
        for (int tag = 0; tag < n; tag++) {
            r.forwarded(tag, MemorySegment.ofArray(new byte[] {(byte) tag}));
        }
        return r;
    }

    private static List<Integer> tags(List<TwinRecords.Forward> forwards) {
        return forwards.stream().map(TwinRecords.Forward::tag).toList();
    }

    @Test
    void anAcknowledgementDropsWhatTheReplicaHasAndKeepsTheRest() {
        TwinRecords r = forwardedTags(5);
        r.trimThrough(3);   // decisions 0, 1, 2 received
        assertEquals(List.of(3, 4), tags(r.missing(3, new long[0])));
    }

    @Test
    void aRepairResendsOnlyWhatTheReplicaLacksAboveItsWatermark() {
        TwinRecords r = forwardedTags(6);
        r.trimThrough(2);
        // the replica holds 0..1 and, out of order, decision 4 (key 5)
        assertEquals(List.of(2, 3, 5), tags(r.missing(2, new long[] {5})));
    }

    @Test
    void aReplicaRecordsWhatItReceivedAsAWatermarkPlusOutOfOrder() {
        TwinRecords r = new TwinRecords();
        r.received(0);
        r.received(1);
        r.received(3);
        assertEquals(2, r.receivedThrough());
        assertEquals(1, r.receivedAbove().length);
        assertEquals(4, r.receivedAbove()[0]);
    }

    @Test
    void anEvictedDecisionAReplicaLacksIsALoudFailure() {
        TwinRecords r = new TwinRecords();
        byte[] big = new byte[40 << 20];
        r.forwarded(0, MemorySegment.ofArray(big));
        r.forwarded(1, MemorySegment.ofArray(big));   // over the 64 MiB bound: decision 0 is evicted
        assertThrows(org.fthp.replication.error.MpiError.class, () -> r.missing(0, new long[0]));
    }
}
