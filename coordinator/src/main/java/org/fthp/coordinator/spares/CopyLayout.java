package org.fthp.coordinator.spares;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.fthp.coordinator.event.JobShape;

/**
 * Which native process holds each logical rank's computational copy and replica (-1: none), as the primary last told
 * every process (the launch's, or a rollback's): the layout a rollback starts from. Roles are kept as the processes'
 * repairs left them: a replica whose computational copy died computes, a dead replica is gone, and a spare fills the
 * one hole of the rank it is given (its only copy, or its replica). Immutable.
 */
record CopyLayout(List<Integer> cmp, List<Integer> rep) {

    CopyLayout {
        cmp = List.copyOf(cmp);
        rep = List.copyOf(rep);
    }

    /** The launch's: rank {@code l} on native {@code l}, its replica (the lowest {@code M} ranks) on {@code N + l}. */
    static CopyLayout launch(JobShape shape) {
        int n = shape.logicalRanks();
        List<Integer> cmp = new ArrayList<>(n);
        List<Integer> rep = new ArrayList<>(n);
        for (int l = 0; l < n; l++) {
            cmp.add(l);
            rep.add(l < shape.replicated() ? n + l : -1);
        }
        return new CopyLayout(cmp, rep);
    }

    /**
     * The layout once the processes in {@code dead} are gone (promotions made) and {@code spare} fills rank
     * {@code rank}'s hole: its computational copy if the rank has no live copy, else its replica.
     */
    CopyLayout after(Set<Integer> dead, int rank, int spare) {
        CopyLayout survivors = without(dead);
        List<Integer> cmp = new ArrayList<>(survivors.cmp);
        List<Integer> rep = new ArrayList<>(survivors.rep);
        if (cmp.get(rank) < 0) {
            cmp.set(rank, spare);
        } else if (rep.get(rank) < 0) {
            rep.set(rank, spare);
        } else {
            throw new IllegalArgumentException("rank " + rank + " has both its copies: no place for spare " + spare);
        }
        return new CopyLayout(cmp, rep);
    }

    /** The layout once the processes in {@code dead} are gone: a dead computational copy's replica computes. */
    CopyLayout without(Set<Integer> dead) {
        List<Integer> cmp = new ArrayList<>(this.cmp.size());
        List<Integer> rep = new ArrayList<>(this.rep.size());
        for (int l = 0; l < this.cmp.size(); l++) {
            int c = this.cmp.get(l);
            int r = this.rep.get(l);
            boolean cAlive = c >= 0 && !dead.contains(c);
            boolean rAlive = r >= 0 && !dead.contains(r);
            cmp.add(cAlive ? c : rAlive ? r : -1);
            rep.add(cAlive && rAlive ? r : -1);
        }
        return new CopyLayout(cmp, rep);
    }

    /**
     * The lowest rank the user asked a replica for ({@code shape}'s replicated ranks) that has a live copy but no
     * live replica once {@code dead} are gone; -1 if none.
     */
    int firstWithoutReplica(Set<Integer> dead, JobShape shape) {
        CopyLayout now = without(dead);
        for (int l = 0; l < shape.replicated() && l < now.cmp.size(); l++) {
            if (now.cmp.get(l) >= 0 && now.rep.get(l) < 0) {
                return l;
            }
        }
        return -1;
    }
}
