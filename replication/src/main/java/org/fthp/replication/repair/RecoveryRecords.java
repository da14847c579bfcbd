package org.fthp.replication.repair;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.fthp.coordinator.event.Role;
import org.fthp.replication.structure.ConsumedRecord;

/**
 * What the survivors of a failure tell each other after the new
 * communicators exist (docs/DESIGN.md §9, step 5): for every message stream a copy
 * receives, how far it has consumed, addressed to the copies of the stream's
 * source; and for a replica, which of its twin's decisions it has received.
 * One buffer per destination process, for an alltoallv.
 */
public final class RecoveryRecords {

    private static final byte STREAM = 1;
    private static final byte TWIN = 2;
    private static final byte COLLECTIVES = 3;

    /**
     * A receiver's record of one stream.
     *
     * @param commId       the communicator
     * @param source       the sender's rank, as the receiver addresses it
     * @param receiverRank the receiver's rank, as the sender addresses it
     * @param receiverRole which copy of its rank the receiver is
     */
    public record Stream(int commId, int source, int receiverRank, Role receiverRole, ConsumedRecord consumed) {}

    /** A replica's record of the decisions its twin forwarded on one communicator. */
    public record Twin(int commId, ConsumedRecord received) {}

    /** Which collectives of a communicator a process that runs them natively has completed. */
    public record Collectives(int commId, ConsumedRecord completed) {}

    private final List<Stream> streams = new ArrayList<>();
    private final List<Twin> twins = new ArrayList<>();
    private final List<Collectives> collectives = new ArrayList<>();

    public void add(Stream s) { streams.add(s); }
    public void add(Twin t) { twins.add(t); }
    public void add(Collectives c) { collectives.add(c); }
    public List<Stream> streams() { return streams; }
    public List<Twin> twins() { return twins; }
    public List<Collectives> collectives() { return collectives; }

    public byte[] encode() {
        int bytes = 0;
        for (Stream s : streams) {
            bytes += 1 + 4 * 3 + 1 + 8 + 4 + 8 * s.consumed().above().length;
        }
        for (Twin t : twins) {
            bytes += 1 + 4 + 8 + 4 + 8 * t.received().above().length;
        }
        for (Collectives c : collectives) {
            bytes += 1 + 4 + 8 + 4 + 8 * c.completed().above().length;
        }
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (Stream s : streams) {
            b.put(STREAM).putInt(s.commId()).putInt(s.source()).putInt(s.receiverRank())
                    .put((byte) s.receiverRole().ordinal());
            putRecord(b, s.consumed());
        }
        for (Twin t : twins) {
            b.put(TWIN).putInt(t.commId());
            putRecord(b, t.received());
        }
        for (Collectives c : collectives) {
            b.put(COLLECTIVES).putInt(c.commId());
            putRecord(b, c.completed());
        }
        return b.array();
    }

    private static void putRecord(ByteBuffer b, ConsumedRecord r) {
        b.putLong(r.through()).putInt(r.above().length);
        for (long id : r.above()) {
            b.putLong(id);
        }
    }

    /** Appends the records in {@code bytes} (one peer's buffer) to {@code into}. */
    public static void decode(byte[] bytes, int offset, int length, RecoveryRecords into) {
        ByteBuffer b = ByteBuffer.wrap(bytes, offset, length).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            byte kind = b.get();
            switch (kind) {
                case STREAM -> {
                    int comm = b.getInt();
                    int source = b.getInt();
                    int receiver = b.getInt();
                    Role role = Role.values()[b.get()];
                    into.add(new Stream(comm, source, receiver, role, getRecord(b)));
                }
                case TWIN -> {
                    int comm = b.getInt();
                    into.add(new Twin(comm, getRecord(b)));
                }
                case COLLECTIVES -> {
                    int comm = b.getInt();
                    into.add(new Collectives(comm, getRecord(b)));
                }
                default -> throw new IllegalStateException("corrupt recovery record of kind " + kind);
            }
        }
    }

    private static ConsumedRecord getRecord(ByteBuffer b) {
        long through = b.getLong();
        int n = b.getInt();
        if (n < 0 || n > b.remaining() / 8) {
            throw new IllegalStateException("corrupt recovery record: " + n + " ids");
        }
        long[] above = new long[n];
        for (int i = 0; i < n; i++) {
            above[i] = b.getLong();
        }
        return new ConsumedRecord(through, above);
    }
}
