package org.fthp.it.programs;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;

import mpi.Comm;
import mpi.Datatype;
import mpi.DoubleInt;
import mpi.Int2;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Struct;
import mpi.UserFunction;

/**
 * Derived datatypes (through point-to-point and collectives) and reduction operators:
 * contiguous, vector, hvector, indexed, hindexed, resized, struct (raw and Struct subclass),
 * size/extent queries in base-type units, dup; commutative and non-commutative user Ops via
 * allReduce/reduce/scan/reduceLocal; MAXLOC/MINLOC on pair types; pack/unpack (MPI.slice of heap arrays: TypesSlice).
 */
public final class TypesAndOps {

    static Intracomm w;
    static int rank, size, left, right;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        w = MPI.COMM_WORLD;
        rank = w.getRank();
        size = w.getSize();
        right = (rank + 1) % size;
        left = (rank - 1 + size) % size;
        Check.runAll(w, "TypesAndOps", () -> {
            basics();
            contiguous();
            vectorAndResized();
            hvector();
            indexed();
            hindexed();
            rawStruct();
            structSubclass();
            commutativeOps();
            nonCommutativeOps();
            keepLeftOp();
            maxlocMinloc();
            reduceLocal();
            packUnpack();
        });
        MPI.Finalize();
    }

    static void basics() throws MPIException {
        Check.equal(1, MPI.INT.getSize(), "INT size in base units");
        Check.equal(1, MPI.INT.getExtent(), "INT extent in base units");
        Check.equal(1, MPI.DOUBLE.getSize(), "DOUBLE size in base units");
        Check.equal(0, MPI.DOUBLE.getLb(), "DOUBLE lb");
        Check.equal(1, MPI.LONG.getTrueExtent(), "LONG true extent");
    }

    static void contiguous() throws MPIException {
        Datatype t = Datatype.createContiguous(3, MPI.INT);
        t.commit();
        Check.equal(3, t.getSize(), "contiguous size");
        Check.equal(3, t.getExtent(), "contiguous extent");
        Check.equal(0, t.getLb(), "contiguous lb");
        int[] s = new int[7];
        for (int i = 0; i < 7; i++) s[i] = rank * 10 + i;
        int[] r = new int[7];
        Arrays.fill(r, -1);
        w.sendRecv(s, 2, t, right, 1, r, 2, t, left, 1);
        int[] e = new int[7];
        for (int i = 0; i < 6; i++) e[i] = left * 10 + i;
        e[6] = -1;
        Check.array(e, r, "contiguous x2 sendRecv");
        // in a collective: allGather one item per rank
        int[] all = new int[3 * size];
        w.allGather(new int[] {rank, rank + 1, rank + 2}, 1, t, all, 1, t);
        for (int q = 0; q < size; q++)
            for (int k = 0; k < 3; k++) Check.equal(q + k, all[3 * q + k], "contiguous allGather");
        Datatype d = t.dup();
        Check.equal(3, d.getSize(), "dup size");
        Check.equal(3, d.getExtent(), "dup extent");
        int[] b = new int[3];
        if (rank == 0) b = new int[] {5, 6, 7};
        w.bcast(b, 1, d, 0);
        Check.array(new int[] {5, 6, 7}, b, "bcast with dup'ed type");
        d.free();
        t.free();
    }

    static final int R = 4, C = 5;

    static double m(int q, int i, int j) {
        return q * 1000 + i * 10 + j + 0.5;
    }

    static void vectorAndResized() throws MPIException {
        // matrices with column offsets live in direct buffers here: MPI.slice of heap arrays is
        // covered separately by TypesSlice
        DoubleBuffer mat = MPI.newDoubleBuffer(R * C);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) mat.put(i * C + j, m(rank, i, j));
        Datatype col = Datatype.createVector(R, 1, C, MPI.DOUBLE);
        col.commit();
        Check.equal(R, col.getSize(), "vector size");
        Check.equal((R - 1) * C + 1, col.getExtent(), "vector extent");
        Check.equal((R - 1) * C + 1, col.getTrueExtent(), "vector true extent");

        // column 2 of my neighbour's matrix, received contiguously
        double[] got = new double[R];
        w.sendRecv(MPI.slice(mat, 2), 1, col, right, 2, got, R, MPI.DOUBLE, left, 2);
        for (int i = 0; i < R; i++) Check.equal(m(left, i, 2), got[i], "vector column row " + i);

        // receive a contiguous vector INTO a column of a matrix (recv side strided)
        DoubleBuffer dst = MPI.newDoubleBuffer(R * C);
        for (int k = 0; k < R * C; k++) dst.put(k, -1);
        double[] colData = {rank + 0.25, rank + 1.25, rank + 2.25, rank + 3.25};
        w.sendRecv(colData, R, MPI.DOUBLE, right, 3, MPI.slice(dst, 3), 1, col, left, 3);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                Check.equal(j == 3 ? left + i + 0.25 : -1, dst.get(i * C + j), "strided receive [" + i + "," + j + "]");

        // resized to one double: count>1 walks successive columns
        Datatype cols = Datatype.createResized(col, 0, 8);
        cols.commit();
        Check.equal(1, cols.getExtent(), "resized extent (base units)");
        Check.equal(0, cols.getLb(), "resized lb");
        Check.equal(R, cols.getSize(), "resized size");
        Check.equal((R - 1) * C + 1, cols.getTrueExtent(), "resized true extent");
        double[] three = new double[3 * R];
        w.sendRecv(MPI.slice(mat, 1), 3, cols, right, 4, three, 3 * R, MPI.DOUBLE, left, 4);
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < R; i++) Check.equal(m(left, i, 1 + c), three[c * R + i], "resized columns c" + c + " r" + i);

        // the transpose through a collective: gather column `rank` of root's... every rank gets
        // column q of rank q's matrix via allGather with the resized column type on the receive side
        double[] mine = new double[R];
        for (int i = 0; i < R; i++) mine[i] = m(rank, i, rank);
        DoubleBuffer t = MPI.newDoubleBuffer(R * C);
        for (int k = 0; k < R * C; k++) t.put(k, -2);
        w.allGather(mine, R, MPI.DOUBLE, t, 1, cols);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                Check.equal(j < size ? m(j, i, j) : -2, t.get(i * C + j), "allGather into resized columns [" + i + "," + j + "]");
        cols.free();
        col.free();
    }

    static void hvector() throws MPIException {
        Datatype hv = Datatype.createHVector(3, 2, 5 * 4, MPI.INT); // stride in bytes
        hv.commit();
        Check.equal(6, hv.getSize(), "hvector size");
        Check.equal(12, hv.getExtent(), "hvector extent");
        int[] s = new int[15];
        for (int i = 0; i < 15; i++) s[i] = rank * 100 + i;
        int[] r = new int[6];
        w.sendRecv(s, 1, hv, right, 5, r, 6, MPI.INT, left, 5);
        int b = left * 100;
        Check.array(new int[] {b, b + 1, b + 5, b + 6, b + 10, b + 11}, r, "hvector send");
        hv.free();
    }

    static void indexed() throws MPIException {
        Datatype ix = Datatype.createIndexed(new int[] {2, 1, 3}, new int[] {0, 4, 7}, MPI.INT);
        ix.commit();
        Check.equal(6, ix.getSize(), "indexed size");
        Check.equal(10, ix.getExtent(), "indexed extent");
        int[] s = new int[10];
        for (int i = 0; i < 10; i++) s[i] = rank * 100 + i;
        int[] r = new int[10];
        Arrays.fill(r, -1);
        // indexed on both sides: holes stay untouched
        w.sendRecv(s, 1, ix, right, 6, r, 1, ix, left, 6);
        int b = left * 100;
        Check.array(new int[] {b, b + 1, -1, -1, b + 4, -1, -1, b + 7, b + 8, b + 9}, r, "indexed to indexed");
        // in a collective: gather indexed pieces as contiguous ints at the root
        int[] g = new int[6 * size];
        w.gather(s, 1, ix, g, 6, MPI.INT, 0);
        if (rank == 0)
            for (int q = 0; q < size; q++) {
                int bq = q * 100;
                Check.array(new int[] {bq, bq + 1, bq + 4, bq + 7, bq + 8, bq + 9}, Arrays.copyOfRange(g, 6 * q, 6 * q + 6),
                        "gather indexed from " + q);
            }
        ix.free();
    }

    static void hindexed() throws MPIException {
        Datatype hx = Datatype.createHIndexed(new int[] {1, 2}, new int[] {8, 24}, MPI.LONG); // byte displacements
        hx.commit();
        Check.equal(3, hx.getSize(), "hindexed size");
        Check.equal(1, hx.getLb(), "hindexed lb (base units)");
        Check.equal(4, hx.getExtent(), "hindexed extent");
        Check.equal(4, hx.getTrueExtent(), "hindexed true extent");
        long[] s = new long[5];
        for (int i = 0; i < 5; i++) s[i] = (1L << 40) * rank + i;
        long[] r = new long[3];
        w.sendRecv(s, 1, hx, right, 7, r, 3, MPI.LONG, left, 7);
        long b = (1L << 40) * left;
        Check.that(r[0] == b + 1 && r[1] == b + 3 && r[2] == b + 4, "hindexed send: " + Arrays.toString(r));
        hx.free();
    }

    /** {int @0, double[2] @8, short @24}: gaps at 4..7 and 26..end. */
    static void rawStruct() throws MPIException {
        Datatype st = Datatype.createStruct(new int[] {1, 2, 1}, new int[] {0, 8, 24},
                new Datatype[] {MPI.INT, MPI.DOUBLE, MPI.SHORT});
        st.commit();
        Check.equal(22, st.getSize(), "struct size (bytes)");
        Check.equal(26, st.getTrueExtent(), "struct true extent (bytes)");
        // the alignment padding of the raw extent is checked by TypesStructExtent; here an explicit
        // resize to 32 bytes fixes the record stride so that count > 1 is independent of it
        Datatype raw = st;
        st = Datatype.createResized(raw, 0, 32);
        st.commit();
        raw.free();
        int ext = 32;
        Check.equal(32, st.getExtent(), "resized struct extent (bytes)");
        Check.equal(22, st.getSize(), "resized struct size (bytes)");
        int n = 2;
        ByteBuffer s = MPI.newByteBuffer(ext * n);
        for (int k = 0; k < ext * n; k++) s.put(k, (byte) 0x55);
        for (int it = 0; it < n; it++) {
            int o = it * ext;
            s.putInt(o, rank * 10 + it);
            s.putDouble(o + 8, rank + it * 0.5);
            s.putDouble(o + 16, -rank - it * 0.25);
            s.putShort(o + 24, (short) (1000 + rank + it));
        }
        ByteBuffer r = MPI.newByteBuffer(ext * n);
        for (int k = 0; k < ext * n; k++) r.put(k, (byte) 0x77);
        w.sendRecv(s, n, st, right, 8, r, n, st, left, 8);
        for (int it = 0; it < n; it++) {
            int o = it * ext;
            Check.equal(left * 10 + it, r.getInt(o), "struct int item " + it);
            Check.equal(left + it * 0.5, r.getDouble(o + 8), "struct double[0] item " + it);
            Check.equal(-left - it * 0.25, r.getDouble(o + 16), "struct double[1] item " + it);
            Check.equal(1000 + left + it, r.getShort(o + 24), "struct short item " + it);
            for (int k : new int[] {4, 5, 6, 7, 26, 27, 31}) {
                if (k < ext) Check.equal(0x77, r.get(o + k), "struct gap byte " + k + " untouched, item " + it);
            }
        }
        // the same type through a collective (bcast from the last rank)
        ByteBuffer b = MPI.newByteBuffer(ext);
        if (rank == size - 1) {
            b.putInt(0, 4242);
            b.putDouble(8, Math.E);
            b.putDouble(16, Math.PI);
            b.putShort(24, (short) -7);
        }
        w.bcast(b, 1, st, size - 1);
        Check.equal(4242, b.getInt(0), "struct bcast int");
        Check.equal(Math.E, b.getDouble(8), "struct bcast double0");
        Check.equal(Math.PI, b.getDouble(16), "struct bcast double1");
        Check.equal(-7, b.getShort(24), "struct bcast short");
        st.free();
    }

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
            double pos(int i) { return getDouble(posOff, i); }
            double mass() { return getDouble(massOff); }
            void id(int v) { putInt(idOff, v); }
            void pos(int i, double v) { putDouble(posOff, i, v); }
            void mass(double v) { putDouble(massOff, v); }
        }
    }

    static void structSubclass() throws MPIException {
        Particle p = new Particle();
        Check.equal(0, p.idOff, "Particle id offset");
        Check.equal(4, p.posOff, "Particle pos offset");
        Check.equal(28, p.massOff, "Particle mass offset");
        int ext = p.getExtent(); // exact value (padding) checked by TypesStructExtent
        Check.that(ext >= 36, "Particle extent >= 36, got " + ext);
        Datatype pt = p.getType();
        Check.equal(36, pt.getSize(), "Particle type size");
        ByteBuffer mine = MPI.newByteBuffer(ext);
        Particle.Data d = p.getData(mine);
        d.id(rank + 1);
        for (int i = 0; i < 3; i++) d.pos(i, rank * 3 + i + 0.125);
        d.mass(1.0 / (rank + 1));
        ByteBuffer all = MPI.newByteBuffer(ext * size);
        w.allGather(mine, 1, pt, all, 1, pt);
        for (int q = 0; q < size; q++) {
            Particle.Data e = p.getData(all, q);
            Check.equal(q + 1, e.id(), "Particle " + q + " id");
            for (int i = 0; i < 3; i++) Check.equal(q * 3 + i + 0.125, e.pos(i), "Particle " + q + " pos " + i);
            Check.equal(1.0 / (q + 1), e.mass(), "Particle " + q + " mass");
        }
        // point-to-point with a byte[] buffer and getData(byte[], index)
        byte[] two = new byte[2 * ext];
        Particle.Data a0 = p.getData(two, 0), a1 = p.getData(two, 1);
        a0.id(rank * 2);
        a1.id(rank * 2 + 1);
        a1.mass(-rank);
        byte[] in = new byte[2 * ext];
        w.sendRecv(two, 2, pt, right, 9, in, 2, pt, left, 9);
        Particle.Data b0 = p.getData(in, 0), b1 = p.getData(in, 1);
        Check.equal(left * 2, b0.id(), "Particle byte[] item 0");
        Check.equal(left * 2 + 1, b1.id(), "Particle byte[] item 1");
        Check.equal(-left, b1.mass(), "Particle byte[] item 1 mass");
    }

    /** x op y = x + y + 1 : associative and commutative; over n operands gives sum + n - 1. */
    static final class PlusOne extends UserFunction {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            int[] a = (int[]) in, b = (int[]) inOut;
            for (int i = 0; i < count; i++) b[i] = a[i] + b[i] + 1;
        }
    }

    /** Same on LONG, working directly on the ByteBuffers. */
    static final class PlusOneBuffers extends UserFunction {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
            for (int i = 0; i < count; i++) inOut.putLong(i * 8, in.getLong(i * 8) + inOut.getLong(i * 8) + 1);
        }
    }

    static void commutativeOps() throws MPIException {
        Op op = new Op(new PlusOne(), true);
        Check.that(op.isCommutative(), "commutative op isCommutative");
        int[] s = {rank, rank * rank, -rank};
        int[] r = new int[3];
        w.allReduce(s, r, 3, MPI.INT, op);
        int s0 = 0, s1 = 0;
        for (int q = 0; q < size; q++) {
            s0 += q;
            s1 += q * q;
        }
        Check.array(new int[] {s0 + size - 1, s1 + size - 1, -s0 + size - 1}, r, "commutative user op allReduce");
        for (int root = 0; root < size; root++) {
            int[] rr = new int[3];
            w.reduce(s, rr, 3, MPI.INT, op, root);
            if (rank == root) Check.array(new int[] {s0 + size - 1, s1 + size - 1, -s0 + size - 1}, rr, "commutative user op reduce root " + root);
        }
        int[] sc = new int[1];
        w.scan(new int[] {rank}, sc, 1, MPI.INT, op);
        Check.equal(rank * (rank + 1) / 2 + rank, sc[0], "commutative user op scan");
        op.free();

        Op lop = new Op(new PlusOneBuffers(), true);
        long[] lr = new long[2];
        w.allReduce(new long[] {1L << 40, rank}, lr, 2, MPI.LONG, lop);
        Check.equal((1L << 40) * size + size - 1, lr[0], "ByteBuffer user op allReduce [0]");
        Check.equal(s0 + size - 1, lr[1], "ByteBuffer user op allReduce [1]");
        lop.free();
    }

    /** 2x2 integer matrix product on items of 4 ints (row-major): inOut = in x inOut. */
    static final class MatMul extends UserFunction {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) throws MPIException {
            int[] a = (int[]) in, b = (int[]) inOut;
            int per = type.getExtent(); // 4 base units per item
            for (int k = 0; k < count; k++) {
                int o = k * per;
                int[] c = mul(Arrays.copyOfRange(a, o, o + 4), Arrays.copyOfRange(b, o, o + 4));
                System.arraycopy(c, 0, b, o, 4);
            }
        }
    }

    static int[] mul(int[] a, int[] b) {
        return new int[] {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                          a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    }

    /** rank q's k-th matrix: [[q+1+k, 1], [1, k]] (these do not commute). */
    static int[] mat(int q, int k) {
        return new int[] {q + 1 + k, 1, 1, k};
    }

    static int[] prefix(int upTo, int k) {
        int[] acc = mat(0, k);
        for (int q = 1; q <= upTo; q++) acc = mul(acc, mat(q, k));
        return acc;
    }

    static void nonCommutativeOps() throws MPIException {
        Check.that(!Arrays.equals(mul(mat(0, 0), mat(1, 0)), mul(mat(1, 0), mat(0, 0))), "test matrices do not commute");
        Datatype m2 = Datatype.createContiguous(4, MPI.INT);
        m2.commit();
        Op op = new Op(new MatMul(), false);
        Check.that(!op.isCommutative(), "non-commutative op isCommutative()==false");
        int n = 2;
        int[] s = new int[4 * n];
        for (int k = 0; k < n; k++) System.arraycopy(mat(rank, k), 0, s, 4 * k, 4);
        int[] exp = new int[4 * n];
        for (int k = 0; k < n; k++) System.arraycopy(prefix(size - 1, k), 0, exp, 4 * k, 4);

        int[] r = new int[4 * n];
        w.allReduce(s, r, n, m2, op);
        Check.array(exp, r, "non-commutative allReduce (rank order product)");
        for (int root = 0; root < size; root++) {
            int[] rr = new int[4 * n];
            w.reduce(s, rr, n, m2, op, root);
            if (rank == root) Check.array(exp, rr, "non-commutative reduce root " + root);
        }
        int[] sc = new int[4 * n];
        w.scan(s, sc, n, m2, op);
        int[] pexp = new int[4 * n];
        for (int k = 0; k < n; k++) System.arraycopy(prefix(rank, k), 0, pexp, 4 * k, 4);
        Check.array(pexp, sc, "non-commutative scan");
        // in-place allReduce with the same op
        int[] ip = s.clone();
        w.allReduce(ip, n, m2, op);
        Check.array(exp, ip, "non-commutative allReduce in place");
        op.free();
        m2.free();
    }

    /** x op y = x : result of any reduction is the lowest rank's operand. */
    static final class KeepLeft extends UserFunction {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            double[] a = (double[]) in, b = (double[]) inOut;
            System.arraycopy(a, 0, b, 0, count);
        }
    }

    static void keepLeftOp() throws MPIException {
        Op op = new Op(new KeepLeft(), false);
        double[] s = {rank + 0.5, -rank - 0.5};
        double[] r = new double[2];
        w.allReduce(s, r, 2, MPI.DOUBLE, op);
        Check.array(new double[] {0.5, -0.5}, r, "keep-left allReduce");
        double[] sc = new double[2];
        w.scan(s, sc, 2, MPI.DOUBLE, op);
        Check.array(new double[] {0.5, -0.5}, sc, "keep-left scan");
        double[] ex = {9, 9};
        w.exScan(s, ex, 2, MPI.DOUBLE, op);
        if (rank > 0) Check.array(new double[] {0.5, -0.5}, ex, "keep-left exScan");
        double[] rr = new double[2];
        w.reduce(s, rr, 2, MPI.DOUBLE, op, size - 1);
        if (rank == size - 1) Check.array(new double[] {0.5, -0.5}, rr, "keep-left reduce");
        op.free();
    }

    static double dval(int q, int i) {
        return ((q * 3 + i * 5) % 4) * 1.5 - 2; // ties between ranks
    }

    static int ival(int q, int i) {
        return (q * 7 + i * 2) % 3;
    }

    static void maxlocMinloc() throws MPIException {
        int n = 3;
        DoubleInt di = MPI.doubleInt;
        int ext = di.getExtent();
        Check.equal(16, ext, "MPI.doubleInt extent matches C struct {double; int} / MPI_DOUBLE_INT");
        ByteBuffer s = MPI.newByteBuffer(ext * n), r = MPI.newByteBuffer(ext * n);
        for (int i = 0; i < n; i++) {
            DoubleInt.Data d = di.getData(s, i);
            d.putValue(dval(rank, i));
            d.putIndex(rank * 10 + i);
        }
        w.allReduce(s, r, n, MPI.DOUBLE_INT, MPI.MAXLOC);
        ByteBuffer mn = MPI.newByteBuffer(ext * n);
        w.allReduce(s, mn, n, MPI.DOUBLE_INT, MPI.MINLOC);
        for (int i = 0; i < n; i++) {
            double best = dval(0, i), worst = dval(0, i);
            int bi = i, wi = i;
            for (int q = 1; q < size; q++) {
                double v = dval(q, i);
                if (v > best) { best = v; bi = q * 10 + i; }
                if (v < worst) { worst = v; wi = q * 10 + i; }
            }
            DoubleInt.Data x = di.getData(r, i);
            Check.equal(best, x.getValue(), "MAXLOC value [" + i + "]");
            Check.equal(bi, x.getIndex(), "MAXLOC index (lowest on ties) [" + i + "]");
            DoubleInt.Data y = di.getData(mn, i);
            Check.equal(worst, y.getValue(), "MINLOC value [" + i + "]");
            Check.equal(wi, y.getIndex(), "MINLOC index (lowest on ties) [" + i + "]");
        }

        Int2 i2 = MPI.int2;
        int e2 = i2.getExtent();
        Check.equal(8, e2, "MPI.int2 extent");
        byte[] s2 = new byte[e2 * n];
        for (int i = 0; i < n; i++) {
            Int2.Data d = i2.getData(s2, i);
            d.putValue(ival(rank, i));
            d.putIndex(rank);
        }
        byte[] r2 = new byte[e2 * n];
        w.reduce(s2, r2, n, MPI.INT2, MPI.MINLOC, 0);
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                int best = ival(0, i), bi = 0;
                for (int q = 1; q < size; q++)
                    if (ival(q, i) < best) { best = ival(q, i); bi = q; }
                Int2.Data x = i2.getData(r2, i);
                Check.equal(best, x.getValue(), "INT2 MINLOC value [" + i + "]");
                Check.equal(bi, x.getIndex(), "INT2 MINLOC index [" + i + "]");
            }
        }
    }

    static void reduceLocal() throws MPIException {
        int[] inout = {10, 20, 30};
        Comm.reduceLocal(new int[] {1, 2, 3}, inout, 3, MPI.INT, MPI.SUM);
        Check.array(new int[] {11, 22, 33}, inout, "reduceLocal SUM");
        double[] dio = {1, 5};
        Comm.reduceLocal(new double[] {3, 2}, dio, 2, MPI.DOUBLE, MPI.MAX);
        Check.array(new double[] {3, 5}, dio, "reduceLocal MAX");
        Datatype m2 = Datatype.createContiguous(4, MPI.INT);
        m2.commit();
        Op op = new Op(new MatMul(), false);
        int[] b = mat(1, 0);
        Comm.reduceLocal(mat(0, 0), b, 1, m2, op);
        Check.array(mul(mat(0, 0), mat(1, 0)), b, "reduceLocal user op: inout = in op inout");
        op.free();
        m2.free();
    }

    static void packUnpack() throws MPIException {
        int[] ints = {rank, rank + 1, rank + 2};
        DoubleBuffer mat = MPI.newDoubleBuffer(R * C);
        for (int i = 0; i < R * C; i++) mat.put(i, rank * 100 + i);
        Datatype col = Datatype.createVector(R, 1, C, MPI.DOUBLE);
        col.commit();
        int need = w.packSize(3, MPI.INT) + w.packSize(1, col) + w.packSize(2, MPI.LONG);
        Check.that(need >= 3 * 4 + R * 8 + 16, "packSize total " + need);
        byte[] buf = new byte[need];
        int pos = w.pack(ints, 3, MPI.INT, buf, 0);
        Check.equal(w.packSize(3, MPI.INT), pos, "pack position after 3 ints");
        pos = w.pack(MPI.slice(mat, 1), 1, col, buf, pos);
        pos = w.pack(new long[] {-1L, Long.MAX_VALUE - rank}, 2, MPI.LONG, buf, pos);
        Check.that(pos <= need, "pack position within packSize");

        // local round trip
        int[] i2 = new int[3];
        double[] c2 = new double[R];
        long[] l2 = new long[2];
        int p = w.unpack(buf, 0, i2, 3, MPI.INT);
        p = w.unpack(buf, p, c2, R, MPI.DOUBLE);
        p = w.unpack(buf, p, l2, 2, MPI.LONG);
        Check.equal(pos, p, "unpack consumed what pack produced");
        Check.array(ints, i2, "unpack ints");
        for (int i = 0; i < R; i++) Check.equal(rank * 100 + i * C + 1, c2[i], "unpack column " + i);
        Check.that(l2[0] == -1L && l2[1] == Long.MAX_VALUE - rank, "unpack longs");

        // ship the packed bytes as MPI.PACKED to the right and unpack the left one's
        byte[] in = new byte[need];
        w.sendRecv(buf, pos, MPI.PACKED, right, 10, in, need, MPI.PACKED, left, 10);
        int[] i3 = new int[3];
        DoubleBuffer m3 = MPI.newDoubleBuffer(R * C);
        long[] l3 = new long[2];
        int q = w.unpack(in, 0, i3, 3, MPI.INT);
        q = w.unpack(in, q, MPI.slice(m3, 4), 1, col); // scatter into column 4
        w.unpack(in, q, l3, 2, MPI.LONG);
        Check.array(new int[] {left, left + 1, left + 2}, i3, "PACKED ints from left");
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                Check.equal(j == 4 ? left * 100 + i * C + 1 : 0, m3.get(i * C + j), "PACKED column into col 4 [" + i + "," + j + "]");
        Check.that(l3[1] == Long.MAX_VALUE - left, "PACKED longs from left");
        col.free();
    }
}
