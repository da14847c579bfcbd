package org.fthp.apps.cloverleaf;

/**
 * Halo cells on the edge of the mesh (the reference's update_halo kernel). Every external boundary
 * is a reflective wall: a halo entry mirrors the interior entry at the same distance from the wall,
 * and the velocity or flux component normal to the wall changes sign.
 *
 * <p>Where the mirror point lies depends on the data type, and for face data the reference mirrors
 * around a point that is not the wall (x-face data at the bottom copies row 1+k, not k); those
 * offsets are kept so results match it. Runs after the exchange with neighbours, over the full
 * extended edge, so that corner halos end up as on a single chunk.
 */
final class Boundary {

    private Boundary() {}

    static void reflect(Chunk c, int[] neighbours, int fields, int depth) {
        boolean left = neighbours[Decomposition.LEFT] == Decomposition.EXTERNAL;
        boolean right = neighbours[Decomposition.RIGHT] == Decomposition.EXTERNAL;
        boolean bottom = neighbours[Decomposition.BOTTOM] == Decomposition.EXTERNAL;
        boolean top = neighbours[Decomposition.TOP] == Decomposition.EXTERNAL;
        if (!(left || right || bottom || top)) {
            return;
        }
        int w = c.stride;
        for (Field f : Field.ALL) {
            if ((fields & f.bit) == 0) {
                continue;
            }
            double[] a = f.of(c);
            int xInc = f.type.xInc;
            int yInc = f.type.yInc;
            double ySign = f.isYComponent() ? -1.0 : 1.0;
            double xSign = f.isXComponent() ? -1.0 : 1.0;
            // Row (column) mirrored onto halo row 1-k is bottomSrc+k; onto yMax+yInc+k it is topSrc-k.
            int bottomSrc = f.type == Field.Type.CELL ? 0 : 1;
            int topSrc = c.yMax + (f.type == Field.Type.X_FACE ? 0 : 1);
            int leftSrc = f.type == Field.Type.CELL ? 0 : 1;
            int rightSrc = c.xMax + (f.type == Field.Type.Y_FACE ? 0 : 1);
            int jLo = 1 - depth;
            int jHi = c.xMax + xInc + depth;
            int kLo = 1 - depth;
            int kHi = c.yMax + yInc + depth;
            if (bottom) {
                for (int k = 1; k <= depth; k++) {
                    int dst = c.idx(0, 1 - k);
                    int src = c.idx(0, bottomSrc + k);
                    for (int j = jLo; j <= jHi; j++) {
                        a[dst + j] = ySign * a[src + j];
                    }
                }
            }
            if (top) {
                for (int k = 1; k <= depth; k++) {
                    int dst = c.idx(0, c.yMax + yInc + k);
                    int src = c.idx(0, topSrc - k);
                    for (int j = jLo; j <= jHi; j++) {
                        a[dst + j] = ySign * a[src + j];
                    }
                }
            }
            if (left) {
                for (int k = kLo; k <= kHi; k++) {
                    int row = c.idx(0, k);
                    for (int j = 1; j <= depth; j++) {
                        a[row + 1 - j] = xSign * a[row + leftSrc + j];
                    }
                }
            }
            if (right) {
                for (int k = kLo; k <= kHi; k++) {
                    int row = c.idx(0, k);
                    for (int j = 1; j <= depth; j++) {
                        a[row + c.xMax + xInc + j] = xSign * a[row + rightSrc - j];
                    }
                }
            }
        }
    }
}
