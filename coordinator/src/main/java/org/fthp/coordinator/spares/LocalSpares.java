package org.fthp.coordinator.spares;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.netty.channel.Channel;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.Message;

/**
 * The spares registered with one node coordinator, by connection, and whether the job's program has ended (then
 * each spare, even one that registers late, is told to finalize). Called under the node's lock.
 */
public final class LocalSpares {

    private static final Message.SparesRelease RELEASE = new Message.SparesRelease();

    /** Waiting spares: connection to native rank. */
    private final Map<Channel, Integer> waiting = new LinkedHashMap<>();
    /** Each waiting spare's pid, by connection. */
    private final Map<Channel, Long> pids = new LinkedHashMap<>();
    /**
     * Spares a rollback gave a rank, until their spare connection ends normally (they have registered as that
     * rank's copy by then): what their death before that is, a failure of the rank they took.
     */
    private final Map<Channel, FailedProcess> taking = new LinkedHashMap<>();
    private boolean released;
    /** The largest piece this node holds (0: none yet), told to every waiting spare and every later one. */
    private long warmBytes;

    /** A spare registered on {@code channel}; released at once if the program has already ended. */
    public void registered(Channel channel, int nativeRank, long pid) {
        if (released) {
            channel.writeAndFlush(RELEASE);
        } else {
            waiting.put(channel, nativeRank);
            pids.put(channel, pid);
            if (warmBytes > 0) {
                channel.writeAndFlush(new Message.SpareWarm(warmBytes));
            }
        }
    }

    /**
     * This node now holds a piece of {@code pieceBytes}: if no piece it held was as large, every waiting spare is
     * told, so it faults in that much heap while it waits (a spare that takes a rank allocates the rank's state).
     */
    public void pieceHeld(long pieceBytes) {
        if (pieceBytes <= warmBytes) {
            return;
        }
        warmBytes = pieceBytes;
        Message.SpareWarm warm = new Message.SpareWarm(pieceBytes);
        for (Channel c : waiting.keySet()) {
            c.writeAndFlush(warm);
        }
    }

    /** The native rank of the spare on {@code channel}, now forgotten (it finished, or its connection went); null if none. */
    public Integer gone(Channel channel) {
        pids.remove(channel);
        return waiting.remove(channel);
    }

    /** The spare connection on {@code channel} of a spare that took a rank ended normally: it is that rank's copy. */
    public boolean took(Channel channel) {
        return taking.remove(channel) != null;
    }

    /**
     * The connection on {@code channel} was lost: if a spare that took a rank had it and had not ended it normally,
     * it died taking the rank, which is that rank's failure ({@code cause}); else null.
     */
    public FailedProcess diedTaking(Channel channel, String cause) {
        FailedProcess p = taking.remove(channel);
        return p == null ? null : new FailedProcess(p.pid(), p.nativeRank(), p.logicalRank(), p.role(), cause);
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
                taking.put(c, new FailedProcess(pids.remove(c), nativeRank, rollback.lostRank(), Role.CMP, ""));
                c.writeAndFlush(rollback);
                return true;
            }
        }
        return false;
    }

    /** A new incarnation of the job (a relaunch): its spares are new ones, and not released yet. */
    public void reset() {
        waiting.clear();
        pids.clear();
        taking.clear();
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
