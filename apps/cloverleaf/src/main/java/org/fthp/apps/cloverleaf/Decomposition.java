package org.fthp.apps.cloverleaf;

/**
 * Splits the mesh into one chunk per rank the way the reference's {@code clover_decompose} does:
 * the first factorisation chunksX x chunksY (smallest chunksY first) whose chunk grid is no more
 * elongated than the mesh, falling back to strips when the count is prime or only a 1D split fits.
 * Ranks are numbered row by row from the bottom left; the first {@code x_cells mod chunksX} columns
 * (and {@code y_cells mod chunksY} rows) get one extra cell.
 */
final class Decomposition {

    /** Neighbour value of a face on the edge of the mesh (the reference's EXTERNAL_FACE). */
    static final int EXTERNAL = -1;

    static final int LEFT = 0;
    static final int RIGHT = 1;
    static final int BOTTOM = 2;
    static final int TOP = 3;

    final int chunksX;
    final int chunksY;
    final double meshRatio;

    Decomposition(int xCells, int yCells, int chunks) {
        // The reference computes these ratios in default (single) precision; so do we, so that a
        // close call between two splits goes the same way.
        meshRatio = (double) ((float) xCells / (float) yCells);
        int cx = chunks;
        int cy = 1;
        boolean found = false;
        for (int c = 1; c <= chunks; c++) {
            if (chunks % c == 0) {
                double factorX = (double) (chunks / (float) c);
                double factorY = c;
                if (factorX / factorY <= meshRatio) {
                    cy = c;
                    cx = chunks / c;
                    found = true;
                    break;
                }
            }
        }
        if (!found || cy == chunks) {
            if (meshRatio >= 1.0) {
                cx = chunks;
                cy = 1;
            } else {
                cx = 1;
                cy = chunks;
            }
        }
        chunksX = cx;
        chunksY = cy;
        if (xCells < chunksX * Chunk.HALO || yCells < chunksY * Chunk.HALO) {
            throw new IllegalArgumentException("a " + xCells + "x" + yCells + " mesh cannot be split into "
                    + chunksX + "x" + chunksY + " chunks at least " + Chunk.HALO + " cells wide; use fewer ranks");
        }
    }

    /** Chunk column (0-based) of a rank. */
    int column(int rank) {
        return rank % chunksX;
    }

    /** Chunk row (0-based) of a rank. */
    int row(int rank) {
        return rank / chunksX;
    }

    /** First and last global cell (1-based) of column or row {@code i} of {@code parts}. */
    static int[] range(int cells, int parts, int i) {
        int delta = cells / parts;
        int extra = cells % parts;
        int first = i * delta + 1 + Math.min(i, extra);
        int last = first + delta - 1 + (i < extra ? 1 : 0);
        return new int[] {first, last};
    }

    Chunk chunkOf(int rank, int xCells, int yCells) {
        int[] x = range(xCells, chunksX, column(rank));
        int[] y = range(yCells, chunksY, row(rank));
        return new Chunk(x[0], x[1], y[0], y[1]);
    }

    /** Ranks of the four neighbours (LEFT, RIGHT, BOTTOM, TOP), EXTERNAL on the mesh edge. */
    int[] neighbours(int rank) {
        int cx = column(rank);
        int cy = row(rank);
        return new int[] {
            cx == 0 ? EXTERNAL : rank - 1,
            cx == chunksX - 1 ? EXTERNAL : rank + 1,
            cy == 0 ? EXTERNAL : rank - chunksX,
            cy == chunksY - 1 ? EXTERNAL : rank + chunksX,
        };
    }
}
