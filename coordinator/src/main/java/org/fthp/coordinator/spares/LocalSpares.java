package org.fthp.coordinator.spares;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.netty.channel.Channel;

import org.fthp.coordinator.wire.Message;

/**
 * The spares registered with one node coordinator, by connection, and whether the job's program has ended (then
 * each spare, even one that registers late, is told to finalize). Called under the node's lock.
 */
public final class LocalSpares {

    private static final Message.SparesRelease RELEASE = new Message.SparesRelease();

    /** Waiting spares: connection to native rank. */
    private final Map<Channel, Integer> waiting = new LinkedHashMap<>();
    private boolean released;

    /** A spare registered on {@code channel}; released at once if the program has already ended. */
    public void registered(Channel channel, int nativeRank) {
        if (released) {
            channel.writeAndFlush(RELEASE);
        } else {
            waiting.put(channel, nativeRank);
        }
    }

    /** The native rank of the spare on {@code channel}, now forgotten (it finished, or its connection went); null if none. */
    public Integer gone(Channel channel) {
        return waiting.remove(channel);
    }

    public boolean isSpare(Channel channel) {
        return waiting.containsKey(channel);
    }

    /** The program has ended: every waiting spare (and every later one) finalizes. Whether this is news. */
    public boolean release() {
        if (released) {
            return false;
        }
        released = true;
        for (Channel c : waiting.keySet()) {
            c.writeAndFlush(RELEASE);
        }
        waiting.clear();
        return true;
    }

    public boolean released() {
        return released;
    }

    /**
     * A rollback names spare {@code nativeRank}: if it waits here it is told (it takes the lost rank and registers
     * again as that rank's copy) and is no longer a spare. Whether it was here.
     */
    public boolean assign(int nativeRank, Message.Rollback rollback) {
        for (Map.Entry<Channel, Integer> e : waiting.entrySet()) {
            if (e.getValue() == nativeRank) {
                Channel c = e.getKey();
                waiting.remove(c);
                c.writeAndFlush(rollback);
                return true;
            }
        }
        return false;
    }

    /** A new incarnation of the job (a relaunch): its spares are new ones, and not released yet. */
    public void reset() {
        waiting.clear();
        released = false;
    }

    public int waitingCount() {
        return waiting.size();
    }

    /**
     * Primary: whether every program process (native ranks {@code 0..processes-1}) has finished or failed, which
     * is when the spares may finalize. {@code programNatives}: the processes that hold the
     * program's copies (a spare that took a lost rank's place among them).
     */
    public static boolean programEnded(java.util.List<Integer> programNatives, Set<Integer> done,
                                       Set<Integer> failed) {
        for (int rank : programNatives) {
            if (!done.contains(rank) && !failed.contains(rank)) {
                return false;
            }
        }
        return true;
    }
}
