package org.fthp.replication.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.fthp.coordinator.event.Role;
import org.fthp.replication.structure.ConsumedRecord;
import org.junit.jupiter.api.Test;

class RecoveryRecordsTest {

    @Test
    void everyKindOfRecordSurvivesEncodingAndDecoding() {
        RecoveryRecords out = new RecoveryRecords();
        out.add(new RecoveryRecords.Stream(9, 2, 3, Role.REP, new ConsumedRecord(41, new long[] {43, 47})));
        out.add(new RecoveryRecords.Stream(1, 0, 1, Role.CMP, new ConsumedRecord(0, new long[0])));
        out.add(new RecoveryRecords.Twin(9, new ConsumedRecord(5, new long[] {7})));
        out.add(new RecoveryRecords.Collectives(1, new ConsumedRecord(12, new long[] {14})));
        byte[] bytes = out.encode();

        byte[] framed = new byte[bytes.length + 5];
        System.arraycopy(bytes, 0, framed, 3, bytes.length);
        RecoveryRecords in = new RecoveryRecords();
        RecoveryRecords.decode(framed, 3, bytes.length, in);

        assertEquals(2, in.streams().size());
        RecoveryRecords.Stream s = in.streams().get(0);
        assertEquals(9, s.commId());
        assertEquals(2, s.source());
        assertEquals(3, s.receiverRank());
        assertEquals(Role.REP, s.receiverRole());
        assertEquals(41, s.consumed().through());
        assertArrayEquals(new long[] {43, 47}, s.consumed().above());
        assertEquals(Role.CMP, in.streams().get(1).receiverRole());
        assertEquals(5, in.twins().get(0).received().through());
        assertArrayEquals(new long[] {7}, in.twins().get(0).received().above());
        assertEquals(12, in.collectives().get(0).completed().through());
        assertArrayEquals(new long[] {14}, in.collectives().get(0).completed().above());
    }

    @Test
    void decodingAppendsToWhatIsThere() {
        RecoveryRecords a = new RecoveryRecords();
        a.add(new RecoveryRecords.Twin(1, new ConsumedRecord(1, new long[0])));
        byte[] bytes = a.encode();
        RecoveryRecords in = new RecoveryRecords();
        RecoveryRecords.decode(bytes, 0, bytes.length, in);
        RecoveryRecords.decode(bytes, 0, bytes.length, in);
        assertEquals(2, in.twins().size());
    }
}
