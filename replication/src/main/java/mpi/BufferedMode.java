package mpi;

import org.fthp.replication.ops.BufferAccount;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.runtime.Engine;

/**
 * MPI's buffered mode (MPI_Bsend, MPI_Buffer_attach/detach) over ordinary
 * logged sends. A buffered send is posted like any send (staged, logged,
 * resent or skipped through a repair) and completes for the program at
 * once; the engine's progress loop drives the underlying send as it does a
 * freed request's. A large message's bytes plus {@code MPI.BSEND_OVERHEAD}
 * stay charged to the attached buffer until that send is done. A small one
 * (sent eagerly: {@code SendOp.isEager}) is charged nothing and needs no
 * buffer, as in Open MPI, whose buffered sends use the attached buffer only
 * for what they cannot send eagerly.
 *
 * <p>Whether a message fits depends on which earlier ones are done by now,
 * which is timing: the computational copy decides (waiting up to a second
 * for room) and its replica follows (docs/DESIGN.md §7), so both raise
 * MPI_ERR_BUFFER at the same send. A message is done when every copy of its
 * destination it goes to has taken it, so a replicated job holds room a
 * little longer than an unreplicated one.
 */
final class BufferedMode {

    /**
     * How long a buffered send that finds the buffer full waits for earlier
     * messages to leave before MPI_ERR_BUFFER (Open MPI gives up at once).
     */
    private static final long ROOM_WAIT_NANOS = 1_000_000_000L;

    private static byte[] attached;
    private static BufferAccount account;

    private BufferedMode() {}

    static void attach(byte[] buffer) throws MPIException {
        if (buffer == null || buffer.length == 0) {
            throw Errors.error(MPI.ERR_BUFFER, "the buffer to attach is null or empty");
        }
        if (attached != null) {
            throw Errors.error(MPI.ERR_BUFFER, "a buffer is already attached (detach it first)");
        }
        attached = buffer;
        account = new BufferAccount(buffer.length);
    }

    /** Waits until every buffered message has left, then returns the buffer that was attached. */
    static byte[] detach() throws MPIException {
        if (attached == null) {
            throw Errors.error(MPI.ERR_BUFFER, "no buffer is attached");
        }
        BufferAccount a = account;
        Engine.get().await(a::drained);
        byte[] b = attached;
        attached = null;
        account = null;
        return b;
    }

    /**
     * Checks that a message of {@code payloadBytes} fits the attached buffer
     * now, before it is posted (a small one always does); MPI_ERR_BUFFER if not.
     */
    static void reserve(long payloadBytes) throws MPIException {
        if (SendOp.isEager(payloadBytes)) {
            return;
        }
        if (account == null) {
            throw Errors.error(MPI.ERR_BUFFER, "buffered send with no buffer attached (MPI.attachBuffer)");
        }
        long need = charge(payloadBytes);
        if (need > account.capacity()) {
            throw Errors.error(MPI.ERR_BUFFER, "buffered message needs " + need + " bytes (" + payloadBytes
                    + " + MPI.BSEND_OVERHEAD), more than the attached buffer's " + account.capacity());
        }
        Engine engine = Engine.get();
        BufferAccount a = account;
        boolean fits = engine.twins().decided(engine.twins().world(), 1, () -> {
            // sends done by now give their room back; one the receiver already took may not look done yet
            // (its completion is still on its way, or a replica of the receiver lags), so wait a little
            long deadline = System.nanoTime() + ROOM_WAIT_NANOS;
            engine.await(() -> a.hasRoomFor(need) || System.nanoTime() - deadline >= 0);
            return new long[] {a.hasRoomFor(need) ? 1 : 0};
        })[0] != 0;
        if (!fits) {
            throw Errors.error(MPI.ERR_BUFFER, "buffered message needs " + need + " bytes, but " + account.used()
                    + " of the attached buffer's " + account.capacity() + " are held by messages not yet sent");
        }
    }

    /**
     * The posted message's operations: charged to the buffer until done
     * (unless small), and handed to the engine's progress loop; returns a completed operation,
     * which is what the program waits on.
     */
    static NativeOp[] track(NativeOp[] ops, long payloadBytes) {
        Engine engine = Engine.get();
        if (!SendOp.isEager(payloadBytes)) {
            account.charge(charge(payloadBytes), () -> allComplete(ops));
        }
        for (NativeOp op : ops) {
            engine.orphans().adopt(op);
        }
        return new NativeOp[] {Requests.completed()};
    }

    private static long charge(long payloadBytes) {
        return payloadBytes + MPI.BSEND_OVERHEAD;
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
