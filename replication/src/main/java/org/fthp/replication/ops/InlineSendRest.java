package org.fthp.replication.ops;

import org.fthp.replication.staging.OpBlock;
import org.fthp.replication.structure.CommStructure;

/**
 * A send done inside its call ({@link InlineTransfer}, {@link ShallowTransfer}) that the native library did not
 * complete at once: polled to completion like a detached send, with the block it was started from.
 */
final class InlineSendRest extends NativeOp {
    private final CommStructure comm;

    InlineSendRest(OpContext context, CommStructure comm, OpBlock started) {
        super(context, started);
        this.comm = comm;
    }

    /** A job without replicas has no repair; were there one, the message would be lost with its rank anyway. */
    @Override
    protected NativeOp reissue() {
        return null;
    }

    @Override
    protected CommStructure structure() {
        return comm;
    }
}
