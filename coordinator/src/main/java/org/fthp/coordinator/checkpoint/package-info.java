/**
 * The coordinators' checkpoint service (DESIGN §12): pieces held in memory by the node a process put them to and by
 * a partner node (ReStore-style placement), the primary's commit once every rank's piece is held, the background
 * disk copy and its manifest, and the primary's timer that says when a checkpoint is due.
 *
 * <p>Pieces are opaque bytes with a CRC32C here; their format is the checkpoint module's.
 */
package org.fthp.coordinator.checkpoint;
