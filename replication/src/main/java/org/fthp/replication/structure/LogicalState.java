package org.fthp.replication.structure;

import org.fthp.msglog.SendSequence;
import org.fthp.replication.twins.TwinRecords;

/**
 * What a communicator carries across repairs, whatever native communicators
 * stand behind it: the numbering both twins and every member agree on (send
 * ids, collective and derivation sequences, twin decisions) and the record of
 * what went between the twins.
 */
final class LogicalState {

    final SendSequence sendIds;
    final TwinRecords twinRecords = new TwinRecords();
    int childSequence;

    LogicalState(int peers) {
        this.sendIds = new SendSequence(peers);
    }
}
