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

    /** Whether {@code channel} is a spare's; it is forgotten (it finished, or its connection went). */
    public boolean gone(Channel channel) {
        return waiting.remove(channel) != null;
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

    public int waitingCount() {
        return waiting.size();
    }

    /**
     * Primary: whether every program process (native ranks {@code 0..processes-1}) has finished or failed, which
     * is when the spares may finalize.
     */
    public static boolean programEnded(int processes, Set<Integer> done, Set<Integer> failed) {
        for (int rank = 0; rank < processes; rank++) {
            if (!done.contains(rank) && !failed.contains(rank)) {
                return false;
            }
        }
        return true;
    }
}
