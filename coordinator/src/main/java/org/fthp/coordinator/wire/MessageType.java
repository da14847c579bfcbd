package org.fthp.coordinator.wire;

import java.util.Optional;

/**
 * Message types and their one-byte wire codes. Codes are explicit (never {@code ordinal()}) so that reordering
 * this enum can never change the protocol.
 */
public enum MessageType {
    /** server → peer: random nonce the peer must MAC. */
    HELLO(1),
    /** peer → server: role, identity and HMAC-SHA256(secret, nonce || role || identity). */
    AUTH(2),
    /** process → its node coordinator: pid, native rank, logical rank, role. */
    REGISTER_PROCESS(3),
    /** child coordinator → its parent: node id. */
    REGISTER_COORDINATOR(4),
    /** upward: processes that died, as seen below the sender. */
    FAILURE_REPORT(5),
    /** downward: epoch and the complete job-wide failed set. */
    FAILURE_SET(6),
    /** downward: a logical rank has lost every copy; the job must end. */
    JOB_ABORT(7),
    /** process → node: finished normally, so the coming disconnect is not a failure. */
    PROCESS_DONE(8),
    /** server → peer: registration accepted; from here on the peer will receive failure sets. */
    REGISTERED(9),
    /**
     * upward: the launcher's proxy reported a pid that never registered with node {@code nodeId} within the grace
     * period; the primary ends the job once every node that receives the reports has said so.
     */
    UNOWNED_PID(10);

    private final byte code;

    MessageType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static Optional<MessageType> fromCode(byte code) {
        for (MessageType t : values()) {
            if (t.code == code) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
