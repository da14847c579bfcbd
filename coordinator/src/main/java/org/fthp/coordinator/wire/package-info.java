/**
 * The coordinator wire protocol.
 *
 * <p>Frame: {@code [int32 length][byte type][payload]}, big-endian, {@code length} counting type + payload, whole
 * frame at most {@link org.fthp.coordinator.wire.MessageCodec#MAX_FRAME_BYTES} (64 KiB). Payloads are explicit
 * fields ({@link org.fthp.coordinator.wire.MessageCodec}); strings are {@code [uint16 length][UTF-8]}, lists
 * {@code [int32 count][entries]}.
 *
 * <p>Handshake: on accept the server sends HELLO (32 random bytes); the peer answers AUTH with its role, a
 * free-form identity and HMAC-SHA256(job secret, nonce || role || identity); the server checks it in constant
 * time. Then the peer registers (REGISTER_PROCESS or REGISTER_COORDINATOR) and the server acknowledges with
 * REGISTERED, followed by the current FAILURE_SET / JOB_ABORT if there already is one. Anything out of order,
 * malformed, unknown or oversized closes the connection and is logged; no AUTH within the deadline likewise.
 *
 * <p>Not covered (yet): the server does not prove itself to the peer, and nothing is encrypted. The secret only
 * keeps other local users and stray connections out; multi-host runs rely on the cluster network being private.
 */
package org.fthp.coordinator.wire;
