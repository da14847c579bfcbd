/**
 * Application-level checkpoints (the checkpoint/restart issue, DESIGN §12), the parts that need neither MPI nor a
 * network: the byte format of one rank's piece ({@link org.fthp.checkpoint.piece}) and the atomic on-disk store of
 * pieces by epoch ({@link org.fthp.checkpoint.store}). The coordinators hold and move pieces as opaque bytes; the
 * process side (registration, snapshot agreement) builds on these.
 */
package org.fthp.checkpoint;
