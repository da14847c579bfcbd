package org.fthp.replication.runtime;

import org.fthp.replication.ops.BufferAccount;
import org.fthp.replication.ops.CompletedOp;
import org.fthp.replication.ops.EagerLimit;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.OpContext;
import org.fthp.replication.ops.OrphanRequests;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.progress.DutyCycle;

/**
 * The engine's side of MPI's buffered mode (MPI_Bsend, MPI_Buffer_attach and
 * detach): the attached buffer, kept as a {@link BufferAccount}, and the
 * buffered messages charged to it. A buffered send is posted like any send
 * (staged, logged, resent or skipped through a repair) and completes for the
 * program at once; the engine's progress loop drives the underlying send as
 * it does a freed request's. A large message's bytes plus the per-message
 * overhead stay charged until that send is done. A small one (sent eagerly:
 * {@code SendOp.isEager}) is charged nothing and needs no buffer, as in Open
 * MPI, whose buffered sends use the attached buffer only for what they cannot
 * send eagerly.
 *
 * <p>Whether a message fits depends on which earlier ones are done by now,
 * which is timing: the computational copy decides (waiting up to a second
 * for room) and its replica follows (docs/DESIGN.md §7), so both refuse the
 * same send. A message is done when every copy of its destination it goes to
 * has taken it, so a replicated job holds room a little longer than an
 * unreplicated one. Used under the engine's gate; {@code mpi.BufferedMode}
 * checks arguments and turns refusals into MPI errors.
 */
public final class BufferedSends {

    /**
     * How long a buffered send that finds the buffer full waits for earlier
     * messages to leave before it is refused (Open MPI gives up at once).
     */
    private static final long ROOM_WAIT_NANOS = 1_000_000_000L;

    /** What {@link #reserve} found. */
    public enum Room { FITS, NO_BUFFER, LARGER_THAN_BUFFER, FULL }

    private final OpContext ops;
    /** Progresses the buffered sends, which nobody waits for. */
    private final OrphanRequests orphans;
    private final DutyCycle duty;
    /** Decides, for both twins, whether a send found room. */
    private final Twins twins;
    private byte[] attached;
    private BufferAccount account;
    /** Charged per buffered message on top of its payload (MPI_BSEND_OVERHEAD). */
    private long overheadBytes;

    BufferedSends(OpContext ops, OrphanRequests orphans, DutyCycle duty, Twins twins) {
        this.ops = ops;
        this.orphans = orphans;
        this.duty = duty;
        this.twins = twins;
    }

    /** Attaches {@code buffer}, each message costing {@code overheadBytes} more; false if one is attached already. */
    public boolean attach(byte[] buffer, long overheadBytes) {
        if (attached != null) {
            return false;
        }
        attached = buffer;
        account = new BufferAccount(buffer.length);
        this.overheadBytes = overheadBytes;
        return true;
    }

    /** Waits until every buffered message has left, then returns the buffer that was attached (null: none was). */
    public byte[] detach() {
        if (attached == null) {
            return null;
        }
        BufferAccount a = account;
        duty.await(a::drained);
        byte[] b = attached;
        attached = null;
        account = null;
        return b;
    }

    /** What a message of {@code payloadBytes} costs the buffer while it is outstanding. */
    public long charge(long payloadBytes) {
        return payloadBytes + overheadBytes;
    }

    public long capacity() {
        return account == null ? 0 : account.capacity();
    }

    public long used() {
        return account == null ? 0 : account.used();
    }

    /**
     * Whether a message of {@code payloadBytes} fits the attached buffer now,
     * before it is posted (a small one always does). The computational copy
     * decides, its replica follows.
     */
    public Room reserve(long payloadBytes) {
        if (EagerLimit.fits(payloadBytes)) {
            return Room.FITS;
        }
        if (account == null) {
            return Room.NO_BUFFER;
        }
        long need = charge(payloadBytes);
        if (need > account.capacity()) {
            return Room.LARGER_THAN_BUFFER;
        }
        BufferAccount a = account;
        boolean fits = twins.decided(twins.world(), 1, () -> {
            // sends done by now give their room back; one the receiver already took may not look done yet
            // (its completion is still on its way, or a replica of the receiver lags), so wait a little
            long deadline = System.nanoTime() + ROOM_WAIT_NANOS;
            duty.await(() -> a.hasRoomFor(need) || System.nanoTime() - deadline >= 0);
            return new long[] {a.hasRoomFor(need) ? 1 : 0};
        })[0] != 0;
        return fits ? Room.FITS : Room.FULL;
    }

    /**
     * The posted message's operations: charged to the buffer until done
     * (unless small), and handed to the engine's progress loop; returns a
     * completed operation, which is what the program waits on.
     */
    public NativeOp[] track(NativeOp[] ops, long payloadBytes) {
        if (!EagerLimit.fits(payloadBytes)) {
            account.charge(charge(payloadBytes), () -> allComplete(ops));
        }
        for (NativeOp op : ops) {
            orphans.adopt(op);
        }
        return new NativeOp[] {CompletedOp.create(this.ops)};
    }

    private static boolean allComplete(NativeOp[] ops) {
        for (NativeOp op : ops) {
            if (!op.isComplete()) {
                return false;
            }
        }
        return true;
    }
}
