package mpi;

import org.fthp.replication.runtime.BufferedSends;
import org.fthp.replication.runtime.Engine;

/**
 * MPI's buffered mode (MPI_Bsend, MPI_Buffer_attach/detach) as the API sees
 * it: arguments and errors. The attached buffer and the messages charged to
 * it are the engine's ({@link BufferedSends}, which says how a buffered send
 * works); every refusal is MPI_ERR_BUFFER, as in Open MPI.
 */
final class BufferedMode {

    private BufferedMode() {}

    static void attach(byte[] buffer) throws MPIException {
        if (buffer == null || buffer.length == 0) {
            throw Errors.error(MPI.ERR_BUFFER, "the buffer to attach is null or empty");
        }
        if (!sends().attach(buffer, MPI.BSEND_OVERHEAD)) {
            throw Errors.error(MPI.ERR_BUFFER, "a buffer is already attached (detach it first)");
        }
    }

    /** Waits until every buffered message has left, then returns the buffer that was attached. */
    static byte[] detach() throws MPIException {
        byte[] b = sends().detach();
        if (b == null) {
            throw Errors.error(MPI.ERR_BUFFER, "no buffer is attached");
        }
        return b;
    }

    /**
     * Checks that a message of {@code payloadBytes} fits the attached buffer
     * now, before it is posted (a small one always does); MPI_ERR_BUFFER if not.
     */
    static void reserve(long payloadBytes) throws MPIException {
        BufferedSends sends = sends();
        switch (sends.reserve(payloadBytes)) {
            case FITS -> { }
            case NO_BUFFER -> throw Errors.error(MPI.ERR_BUFFER,
                    "buffered send with no buffer attached (MPI.attachBuffer)");
            case LARGER_THAN_BUFFER -> throw Errors.error(MPI.ERR_BUFFER, "buffered message needs "
                    + sends.charge(payloadBytes) + " bytes (" + payloadBytes + " + MPI.BSEND_OVERHEAD), more than"
                    + " the attached buffer's " + sends.capacity());
            case FULL -> throw Errors.error(MPI.ERR_BUFFER, "buffered message needs " + sends.charge(payloadBytes)
                    + " bytes, but " + sends.used() + " of the attached buffer's " + sends.capacity()
                    + " are held by messages not yet sent");
        }
    }

    private static BufferedSends sends() {
        return Engine.get().bufferedSends();
    }
}
