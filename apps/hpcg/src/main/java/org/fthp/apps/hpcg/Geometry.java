package org.fthp.apps.hpcg;

/**
 * Where this process's block sits in the global grid (GenerateGeometry): the process grid
 * npx × npy × npz, this rank's coordinates in it, and the global grid it implies. Ranks are laid
 * out x fastest, as in the reference, so neighbours and halo orders match it.
 */
final class Geometry {
    final int size;
    final int rank;
    final int nx, ny, nz;
    final int npx, npy, npz;
    final int ipx, ipy, ipz;
    final long gnx, gny, gnz;
    final long gix0, giy0, giz0;

    Geometry(int size, int rank, int nx, int ny, int nz, int npx, int npy, int npz) {
        if (npx * npy * npz != size) {
            throw new InputError("process grid " + npx + "x" + npy + "x" + npz + " does not hold " + size + " ranks");
        }
        this.size = size;
        this.rank = rank;
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.npx = npx;
        this.npy = npy;
        this.npz = npz;
        this.ipz = rank / (npx * npy);
        this.ipy = (rank - ipz * npx * npy) / npx;
        this.ipx = rank % npx;
        this.gnx = (long) npx * nx;
        this.gny = (long) npy * ny;
        this.gnz = (long) npz * nz;
        this.gix0 = (long) ipx * nx;
        this.giy0 = (long) ipy * ny;
        this.giz0 = (long) ipz * nz;
    }

    /** The grid for {@code size} ranks: the given process grid, or the reference's optimal shape when none is given. */
    static Geometry create(int size, int rank, int nx, int ny, int nz, int npx, int npy, int npz) {
        if (npx * npy * npz <= 0) {
            int[] s = ProcessShape.of(size);
            npx = s[0];
            npy = s[1];
            npz = s[2];
        }
        return new Geometry(size, rank, nx, ny, nz, npx, npy, npz);
    }

    /** The same process grid with half the points each way: the next coarser multigrid level. */
    Geometry coarser() {
        return new Geometry(size, rank, nx / 2, ny / 2, nz / 2, npx, npy, npz);
    }

    /** Rank owning a global row (ComputeRankOfMatrixRow, single nz zone). */
    int rankOfRow(long index) {
        long iz = index / (gny * gnx);
        long iy = (index - iz * gny * gnx) / gnx;
        long ix = index % gnx;
        int qz = (int) (iz / nz);
        int qy = (int) (iy / ny);
        int qx = (int) (ix / nx);
        return qx + qy * npx + qz * npy * npx;
    }

    /** Local row of a global row this rank owns. */
    int localRow(long index) {
        long iz = index / (gny * gnx);
        long iy = (index - iz * gny * gnx) / gnx;
        long ix = index % gnx;
        return (int) (((iz - giz0) * ny + (iy - giy0)) * nx + (ix - gix0));
    }
}
