package org.fthp.it.programs;

import java.nio.IntBuffer;
import java.util.Arrays;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * MPI.slice(array, offset): a heap buffer whose arrayOffset selects where the data starts,
 * used with a collective (bcast, allReduce), point-to-point with a strided type, and pack.
 */
public final class TypesSlice {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank(), size = w.getSize();
        Check.runAll(w, "TypesSlice", () -> {
            run(w, rank, size);
        });
        MPI.Finalize();
    }

    static void run(Intracomm w, int rank, int size) throws MPIException {
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;

        // slice of a direct buffer (works as the reference)
        IntBuffer db = MPI.newIntBuffer(6);
        for (int i = 0; i < 6; i++) db.put(i, rank == size - 1 ? 70 + i : -1);
        w.bcast(MPI.slice(db, 2), 3, MPI.INT, size - 1);
        for (int i = 0; i < 6; i++)
            Check.equal(i >= 2 && i < 5 ? 70 + i : (rank == size - 1 ? 70 + i : -1), db.get(i), "bcast via direct slice [" + i + "]");

        // collective on heap-array slices
        int[] arr = new int[10];
        Arrays.fill(arr, -1);
        if (rank == 0) for (int i = 3; i < 7; i++) arr[i] = i * 11;
        w.bcast(MPI.slice(arr, 3), 4, MPI.INT, 0);
        int[] exp = new int[10];
        for (int i = 0; i < 10; i++) exp[i] = i >= 3 && i < 7 ? i * 11 : -1;
        Check.array(exp, arr, "bcast into MPI.slice(int[], 3)");

        int[] src = new int[8];
        for (int i = 0; i < 8; i++) src[i] = rank * 8 + i;
        int[] dst = new int[9];
        w.allReduce(MPI.slice(src, 2), MPI.slice(dst, 5), 3, MPI.INT, MPI.SUM);
        int[] e2 = new int[9];
        for (int i = 5; i < 8; i++) for (int q = 0; q < size; q++) e2[i] += q * 8 + (i - 5 + 2);
        Check.array(e2, dst, "allReduce MPI.slice(src, 2) -> MPI.slice(dst, 5)");

        // point-to-point: column 2 of a row-major double[] matrix via a vector type
        int r = 4, c = 5;
        double[] mat = new double[r * c];
        for (int i = 0; i < r * c; i++) mat[i] = rank * 1000 + i;
        Datatype col = Datatype.createVector(r, 1, c, MPI.DOUBLE);
        col.commit();
        double[] got = new double[r];
        w.sendRecv(MPI.slice(mat, 2), 1, col, right, 2, got, r, MPI.DOUBLE, left, 2);
        double[] e3 = new double[r];
        for (int i = 0; i < r; i++) e3[i] = left * 1000 + i * c + 2;
        Check.array(e3, got, "send column 2 from MPI.slice(double[], 2)");

        // pack from a slice
        byte[] buf = new byte[w.packSize(1, col)];
        int pos = w.pack(MPI.slice(mat, 1), 1, col, buf, 0);
        double[] back = new double[r];
        w.unpack(buf, 0, back, r, MPI.DOUBLE);
        Check.equal(buf.length, pos, "pack position");
        for (int i = 0; i < r; i++) Check.equal(rank * 1000 + i * c + 1, back[i], "pack column 1 from slice [" + i + "]");
        col.free();
    }
}
