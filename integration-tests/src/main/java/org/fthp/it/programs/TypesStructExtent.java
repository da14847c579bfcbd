package org.fthp.it.programs;

import java.nio.ByteBuffer;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Struct;

/**
 * Extent of struct datatypes must be what native Open MPI 4.1 reports: MPI_Type_create_struct
 * rounds the extent up to the alignment of the most aligned member (verified with a C program
 * on the same Open MPI 4.1.4: {int@0, double[2]@8, short@24} -> extent 32; {int@0, double[3]@4,
 * double@28} -> 40; MPI_DOUBLE_INT -> 16). Arrays of records (count > 1) depend on it.
 */
public final class TypesStructExtent {

    static final class Particle extends Struct {
        final int idOff = addInt();
        final int posOff = addDouble(3);
        final int massOff = addDouble();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() { return getInt(idOff); }
            void id(int v) { putInt(idOff, v); }
            double mass() { return getDouble(massOff); }
            void mass(double v) { putDouble(massOff, v); }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank(), size = w.getSize();
        Check.runAll(w, "TypesStructExtent", () -> {
            Check.equal(16, MPI.doubleInt.getExtent(), "MPI.doubleInt extent (C struct {double; int})");
            Check.equal(8, MPI.int2.getExtent(), "MPI.int2 extent");
            Datatype st = Datatype.createStruct(new int[] {1, 2, 1}, new int[] {0, 8, 24},
                    new Datatype[] {MPI.INT, MPI.DOUBLE, MPI.SHORT});
            st.commit();
            Check.equal(0, st.getLb(), "struct lb");
            Check.equal(26, st.getTrueExtent(), "struct true extent");
            Check.equal(32, st.getExtent(), "struct {int@0, double[2]@8, short@24} extent (Open MPI pads to 8)");
            st.free();

            Particle p = new Particle();
            Check.equal(40, p.getExtent(), "Struct subclass {int, double[3], double} extent (Open MPI pads to 8)");
            // records exchanged as an array use that stride
            int ext = p.getExtent();
            ByteBuffer s = MPI.newByteBuffer(2 * ext), r = MPI.newByteBuffer(2 * ext);
            Particle.Data a = p.getData(s, 0), b = p.getData(s, 1);
            a.id(rank);
            b.id(rank + 100);
            b.mass(rank * 0.5);
            int right = (rank + 1) % size, left = (rank - 1 + size) % size;
            w.sendRecv(s, 2, p.getType(), right, 1, r, 2, p.getType(), left, 1);
            Particle.Data x = p.getData(r, 0), y = p.getData(r, 1);
            Check.equal(left, x.id(), "record 0 id");
            Check.equal(left + 100, y.id(), "record 1 id");
            Check.equal(left * 0.5, y.mass(), "record 1 mass");
        });
        MPI.Finalize();
    }
}
