package org.fthp.checkpoint.api;

import org.fthp.checkpoint.piece.StateReader;
import org.fthp.checkpoint.piece.StateWriter;

/**
 * State a program keeps in an object rather than in arrays: it writes itself
 * into a checkpoint and reads itself back at a restart, in the same order
 * ({@code java.io.DataOutput}/{@code DataInput}). Scalars of a main loop (an
 * iteration counter, a residual) live in such an object or in a one-element
 * array.
 */
public interface Checkpointable extends StateWriter, StateReader {
}
