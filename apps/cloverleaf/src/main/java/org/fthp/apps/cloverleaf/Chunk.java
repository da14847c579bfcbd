package org.fthp.apps.cloverleaf;

/**
 * The fields of this rank's chunk of the mesh, as flat {@code double[]} arrays.
 *
 * <p>Indices follow the reference: cells are {@code j = 1..xMax}, {@code k = 1..yMax}; vertices and
 * faces go one further ({@code xMax + 1}). The reference gives every field a halo of two cells and
 * sizes each array to its data type (cell, vertex, x-face, y-face). Here every 2D array has the
 * same shape, {@code j = -1..xMax+3} by {@code k = -1..yMax+3}, the largest of those: the few unused
 * entries cost little memory and let every kernel use one index formula, so a neighbour is always
 * {@code i ± 1} (in x) or {@code i ± stride} (in y).
 */
final class Chunk {

    /** Halo depth of every field, as in the reference. */
    static final int HALO = 2;

    final int xMax;
    final int yMax;
    /** Distance between (j, k) and (j, k + 1). */
    final int stride;
    /** Number of entries of each 2D array. */
    final int size;

    /** Global cell ranges of this chunk (1-based, inclusive), as the reference's left/right/bottom/top. */
    final int left;
    final int right;
    final int bottom;
    final int top;

    // Cell-centred state
    final double[] density0;
    final double[] density1;
    final double[] energy0;
    final double[] energy1;
    final double[] pressure;
    final double[] viscosity;
    final double[] soundspeed;
    // Vertex velocities
    final double[] xvel0;
    final double[] xvel1;
    final double[] yvel0;
    final double[] yvel1;
    // Face fluxes
    final double[] volFluxX;
    final double[] massFluxX;
    final double[] volFluxY;
    final double[] massFluxY;
    // Geometry
    final double[] volume;
    final double[] xarea;
    final double[] yarea;
    /** Scratch arrays the advection kernels share, like the reference's work_array1..7. */
    final double[] work1;
    final double[] work2;
    final double[] work3;
    final double[] work4;
    final double[] work5;

    // 1D geometry, index j + HALO (x) or k + HALO (y)
    final double[] cellx;
    final double[] celldx;
    final double[] vertexx;
    final double[] vertexdx;
    final double[] celly;
    final double[] celldy;
    final double[] vertexy;
    final double[] vertexdy;

    Chunk(int left, int right, int bottom, int top) {
        this.left = left;
        this.right = right;
        this.bottom = bottom;
        this.top = top;
        this.xMax = right - left + 1;
        this.yMax = top - bottom + 1;
        if (xMax < HALO || yMax < HALO) {
            throw new IllegalArgumentException("a chunk of " + xMax + "x" + yMax
                    + " cells is thinner than the halo depth " + HALO + "; use fewer ranks or more cells");
        }
        // j = -1..xMax+3 stored at j + HALO; slot 0 (j = -2) is unused padding
        this.stride = xMax + 2 * HALO + 2;
        this.size = stride * (yMax + 2 * HALO + 2);
        density0 = new double[size];
        density1 = new double[size];
        energy0 = new double[size];
        energy1 = new double[size];
        pressure = new double[size];
        viscosity = new double[size];
        soundspeed = new double[size];
        xvel0 = new double[size];
        xvel1 = new double[size];
        yvel0 = new double[size];
        yvel1 = new double[size];
        volFluxX = new double[size];
        massFluxX = new double[size];
        volFluxY = new double[size];
        massFluxY = new double[size];
        volume = new double[size];
        xarea = new double[size];
        yarea = new double[size];
        work1 = new double[size];
        work2 = new double[size];
        work3 = new double[size];
        work4 = new double[size];
        work5 = new double[size];
        int nx = stride;
        int ny = yMax + 2 * HALO + 2;
        cellx = new double[nx];
        celldx = new double[nx];
        vertexx = new double[nx];
        vertexdx = new double[nx];
        celly = new double[ny];
        celldy = new double[ny];
        vertexy = new double[ny];
        vertexdy = new double[ny];
    }

    /** Flat index of (j, k). */
    int idx(int j, int k) {
        return (k + HALO) * stride + j + HALO;
    }

    /** Number of cells owned by this chunk. */
    long cells() {
        return (long) xMax * yMax;
    }
}
