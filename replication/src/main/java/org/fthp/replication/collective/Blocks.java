package org.fthp.replication.collective;

import java.lang.foreign.MemorySegment;

/**
 * The per-peer blocks of a collective with per-peer counts (the v- and
 * w-variants): each peer's region of the program's buffer, and where its
 * bytes sit in packed staging. Without regions (a non-root of a rooted
 * collective) the counts are zero and nothing is staged.
 *
 * @param regions    each peer's region, or null
 * @param byteCounts each peer's packed bytes
 * @param byteDispls where each peer's packed bytes start in staging
 * @param totalBytes the staging the blocks need
 */
public record Blocks(Region[] regions, int[] byteCounts, int[] byteDispls, long totalBytes) {

    /** No blocks: a process that neither sends nor receives the per-peer data. */
    public static Blocks none(int peers) {
        return new Blocks(null, new int[peers], new int[peers], 0);
    }

    /** Blocks at the given staging displacements; the staging ends where the furthest block does. */
    public static Blocks at(Region[] regions, int[] byteCounts, int[] byteDispls) {
        long total = 0;
        for (int i = 0; i < regions.length; i++) {
            total = Math.max(total, (long) byteDispls[i] + byteCounts[i]);
        }
        return new Blocks(regions, byteCounts, byteDispls, total);
    }

    public void packInto(MemorySegment seg) {
        if (regions != null) {
            for (int i = 0; i < regions.length; i++) {
                regions[i].packInto(seg, byteDispls[i]);
            }
        }
    }

    public void unpackFrom(MemorySegment seg) {
        if (regions != null) {
            for (int i = 0; i < regions.length; i++) {
                regions[i].unpackFrom(seg, byteDispls[i]);
            }
        }
    }
}
