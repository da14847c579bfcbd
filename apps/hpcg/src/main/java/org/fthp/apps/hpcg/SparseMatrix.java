package org.fthp.apps.hpcg;

/**
 * One level's 27-point operator in flat arrays: row i owns slots [27 i, 27 i + nnzInRow[i]) of
 * {@link #cols} and {@link #values}, in the reference's stencil order (z, then y, then x from -1
 * to +1), so every row sum adds its terms in the same order as the C++ code. Columns below
 * {@link #nrow} are local rows; the halo values follow them, numbered as SetupHalo numbers them.
 * The diagonal is also kept in its own array ({@link #diag}) because the Gauss–Seidel sweeps read
 * it for every row; {@link #replaceDiagonal} keeps both copies equal.
 */
final class SparseMatrix {
    static final int STENCIL = 27;

    final Geometry geom;
    final int nrow;
    int ncol;
    final int localNonzeros;
    long totalRows;
    long totalNonzeros;

    final byte[] nnzInRow;
    final int[] cols;
    final double[] values;
    final double[] diag;
    final int[] diagPos;
    final long[] localToGlobal;
    /** Global column ids, needed only until SetupHalo has turned them into local ids. */
    long[] globalCols;

    Halo halo;
    /** Next coarser level and the transfer data to it; null on the coarsest level. */
    SparseMatrix coarse;
    MgData mg;

    SparseMatrix(Geometry geom, int nrow, int localNonzeros, byte[] nnzInRow, long[] globalCols, double[] values,
                 double[] diag, int[] diagPos, long[] localToGlobal) {
        this.geom = geom;
        this.nrow = nrow;
        this.ncol = nrow;
        this.localNonzeros = localNonzeros;
        this.nnzInRow = nnzInRow;
        this.globalCols = globalCols;
        this.cols = new int[globalCols.length];
        this.values = values;
        this.diag = diag;
        this.diagPos = diagPos;
        this.localToGlobal = localToGlobal;
    }

    /** Copies the diagonal into {@code out} (CopyMatrixDiagonal). */
    void copyDiagonal(double[] out) {
        System.arraycopy(diag, 0, out, 0, nrow);
    }

    /** Installs new diagonal values, seen by SpMV and the smoother alike (ReplaceMatrixDiagonal). */
    void replaceDiagonal(double[] d) {
        for (int i = 0; i < nrow; i++) {
            values[diagPos[i]] = d[i];
            diag[i] = d[i];
        }
    }

    int levels() {
        return coarse == null ? 1 : 1 + coarse.levels();
    }
}
