package org.fthp.replication.ops;

import java.lang.foreign.MemorySegment;

import org.fthp.empi.Empi;

/** MPI's four send modes: standard, synchronous, buffered, ready. */
public enum SendMode {
    STANDARD, SYNCHRONOUS, BUFFERED, READY;

    /** The native send of a message's first part: synchronous for a synchronous send, else standard. */
    void start(MemorySegment message, int bytes, int rank, int tag, long nativeComm, MemorySegment request) {
        if (this == SYNCHRONOUS) {
            Empi.issend(message, bytes, Empi.BYTE, rank, tag, nativeComm, request);
        } else {
            Empi.isend(message, bytes, Empi.BYTE, rank, tag, nativeComm, request);
        }
    }
}
