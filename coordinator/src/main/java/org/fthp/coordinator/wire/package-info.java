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
 * <p>Heartbeats ({@link org.fthp.coordinator.wire.LinkHeartbeat}): once a child coordinator is registered with its
 * parent, both ends send HEARTBEAT (no payload) every interval and take the link for lost after a number of checks in
 * a row that heard nothing from the other end ({@link org.fthp.coordinator.wire.Heartbeats}); the link is then closed,
 * so its owner handles it as any lost connection. Processes and data links have none.
 *
 * <p>Checkpoints ({@link org.fthp.coordinator.checkpoint}): a process sends PIECE_PUT chunks (epoch, rank, CRC32C
 * of the whole piece, its size, offset, bytes; at most 60 KiB each) and gets one PIECE_ACK (held with a partner
 * copy, held locally only, or refused with a reason); PIECE_GET is answered with PIECE_DATA chunks or PIECE_MISSING;
 * CHECKPOINT_COST goes up to the primary. Node coordinators open data links to each other (REGISTER_PEER) for
 * partner copies (PIECE_PUT/PIECE_ACK) and fetches (PIECE_GET/PIECE_DATA/PIECE_MISSING), and report PIECE_HELD and
 * PIECES_ON_DISK up the tree; the primary sends CHECKPOINT_DUE and CHECKPOINT_COMMITTED down to every process. A
 * node tells its waiting spares SPARE_WARM (the largest piece it holds) when that grows.
 *
 * <p>Not covered (yet): the server does not prove itself to the peer, and nothing is encrypted. The secret only
 * keeps other local users and stray connections out; multi-host runs rely on the cluster network being private.
 */
package org.fthp.coordinator.wire;
