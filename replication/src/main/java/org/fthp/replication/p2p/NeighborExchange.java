package org.fthp.replication.p2p;

import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.collective.Region;
import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.ops.RecvOp;
import org.fthp.replication.ops.SendOp;
import org.fthp.replication.ops.Transfer;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.structure.Channel;
import org.fthp.replication.structure.CommStructure;

/**
 * Neighbourhood collectives as sets of point-to-point operations on the
 * communicator's internal channel, so they follow the same routing and
 * logging as every other message without a program's wildcard receive ever
 * matching them.
 */
public final class NeighborExchange {

    private NeighborExchange() {}

    /**
     * Posts a receive per in-neighbour into {@code in[k]}, then a send per
     * out-neighbour from {@code out[k]}; the regions are checked already.
     */
    public static NativeOp[] start(Engine engine, CommStructure s, NeighborLists lists, Region[] in, Region[] out) {
        List<NativeOp> ops = new ArrayList<>();
        for (int k = 0; k < in.length; k++) {
            Region r = in[k];
            ops.add(RecvOp.post(engine.ops(), engine.records(), new Transfer().on(s, Channel.INTERNAL)
                    .data(r.buf(), r.start(), r.count(), r.type()).peer(lists.in()[k], lists.inTags()[k])));
        }
        for (int k = 0; k < out.length; k++) {
            Region r = out[k];
            ops.addAll(List.of(SendOp.post(engine.ops(), engine.records(), new Transfer().on(s, Channel.INTERNAL)
                    .data(r.buf(), r.start(), r.count(), r.type()).peer(lists.out()[k], lists.outTags()[k]))));
        }
        return ops.toArray(new NativeOp[0]);
    }
}
