package org.fthp.it.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Data-path behaviours of Open MPI's Java binding that programs rely on:
 * a buffer's Java type need not match the datatype (raw bytes in
 * native order); datatypes reaching before a sliced buffer's offset; basic
 * element counts and Status setters; testSome/waitSome with no active
 * request; then buffered mode ({@link CompatBsend}). Each exchange is
 * between partners rank^1, so it needs an even number of ranks. Checks its
 * own results; prints "CompatDataPath OK np=n".
 */
public final class CompatDataPath {

    static Intracomm world;
    static int rank, partner;
    static boolean even;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        partner = rank ^ 1;
        even = rank % 2 == 0;
        Check.runAll(world, "CompatDataPath", () -> {
            Check.that(world.getSize() % 2 == 0, "needs an even number of ranks");
            mismatchedTypes();
            elementsAndStatusSetters();
            negativeDisplacementsAfterAnOffset();
            someWithNoActiveRequest();
            CompatBsend.checks();   // buffered mode, in this job: one JVM start less per run
            // FTHP-J's own: Open MPI's binding reads or writes past these buffers, and rejects Java nulls
            memoryStaysProtected();
            javaNullRequests();
        });
        MPI.Finalize();
    }

    /** The bytes of {@code ints} in native order, as Open MPI's binding sends them. */
    static byte[] nativeBytes(int... ints) {
        ByteBuffer b = ByteBuffer.allocate(ints.length * 4).order(ByteOrder.nativeOrder());
        for (int v : ints) b.putInt(v);
        return b.array();
    }

    static void mismatchedTypes() throws MPIException {
        // (Open MPI's binding checks count against the array's length in elements, so arrays here are long)
        int[] ints = {rank * 100 + 0x01020304, rank * 100 + 0x05060708, rank * 100 + 0x0a0b0c0d, 0, 0, 0, 0, 0};
        int p = partner;
        // send(int[], 5, BYTE): the first 5 bytes of the int array's memory
        if (even) {
            world.send(ints, 5, MPI.BYTE, p, 1);
        }
        byte[] got = new byte[8];
        if (!even) {
            Status st = world.recv(got, 8, MPI.BYTE, p, 1);
            Check.equal(5, st.getCount(MPI.BYTE), "BYTE count of 5 bytes");
            Check.equal(MPI.UNDEFINED, st.getCount(MPI.INT), "INT count of 5 bytes");
            Check.equal(MPI.UNDEFINED, st.getElements(MPI.CHAR), "CHAR elements of 5 bytes");
            byte[] expected = Arrays.copyOf(Arrays.copyOf(nativeBytes(p * 100 + 0x01020304, p * 100 + 0x05060708), 5), 8);
            Check.that(Arrays.equals(expected, got), "int[] sent as 5 BYTEs: got " + Arrays.toString(got));
        }

        // recv(int[], 5, CHAR): 10 bytes written into the int array, the rest untouched
        int[] into = {-1, -1, -1, -1, -1};
        if (!even) {
            world.send(new char[] {'a', 'b', 'c', 'd', 'e'}, 5, MPI.CHAR, p, 2);
        } else {
            Status st = world.recv(into, 5, MPI.CHAR, p, 2);
            Check.equal(5, st.getCount(MPI.CHAR), "CHAR count");
            Check.equal(5, st.getElements(MPI.SHORT), "SHORT elements of 10 bytes");
            Check.equal(MPI.UNDEFINED, st.getElements(MPI.INT), "INT elements of 10 bytes");
            ByteBuffer b = ByteBuffer.allocate(20).order(ByteOrder.nativeOrder());
            for (char ch : new char[] {'a', 'b', 'c', 'd', 'e'}) b.putChar(ch);
            b.putShort((short) -1).putInt(-1).putInt(-1);
            b.flip();
            int[] expected = {b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt()};
            Check.array(expected, into, "5 CHARs received into an int[]");
        }

        // several types packed in one array: two doubles travel as four INTs into a long[]
        double[] ds = {Math.PI * (rank + 1), -1.5e300, 0, 0};
        long[] bits = new long[2];
        Status st = world.sendRecv(ds, 4, MPI.INT, p, 3, bits, 2, MPI.LONG, p, 3);
        Check.equal(2, st.getCount(MPI.LONG), "LONG count of 16 bytes");
        Check.equal(Double.doubleToRawLongBits(Math.PI * (p + 1)), bits[0], "double bits as long [0]");
        Check.equal(Double.doubleToRawLongBits(-1.5e300), bits[1], "double bits as long [1]");

        // a pair type (byte-based) from and into an int[]
        int[] pairOut = {rank, rank * 7, 0, 0, 0, 0, 0, 0};
        int[] pairIn = new int[8];
        world.sendRecv(pairOut, 1, MPI.INT2, p, 4, pairIn, 1, MPI.INT2, p, 4);
        Check.array(new int[] {p, p * 7, 0, 0, 0, 0, 0, 0}, pairIn, "INT2 through int arrays");

        // a boolean[] carries one byte per element whatever the datatype
        boolean[] flags = new boolean[4];
        world.sendRecv(new byte[] {0, 1, 0, 7}, 4, MPI.BYTE, p, 5, flags, 1, MPI.INT, p, 5);
        Check.that(!flags[0] && flags[1] && !flags[2] && flags[3], "4 bytes as one INT into a boolean[4]");
    }

    static void elementsAndStatusSetters() throws MPIException {
        // {int, double, 2 shorts}: 4 basic elements in 16 bytes of data
        Datatype rec = Datatype.createStruct(new int[] {1, 1, 2}, new int[] {0, 8, 16},
                new Datatype[] {MPI.INT, MPI.DOUBLE, MPI.SHORT});
        rec.commit();
        byte[] in = new byte[64];
        int[] sizes = {32, 28, 10, 30};   // two records; one and int+double; int and part of the double; ...
        int[] count = {2, MPI.UNDEFINED, MPI.UNDEFINED, MPI.UNDEFINED};
        int[] elements = {8, 6, MPI.UNDEFINED, 7};
        for (int k = 0; k < sizes.length; k++) {
            Status st = world.sendRecv(new byte[sizes[k]], sizes[k], MPI.BYTE, partner, 10 + k, in, 2, rec,
                    partner, 10 + k);
            Check.equal(count[k], st.getCount(rec), sizes[k] + " bytes: count of the struct");
            Check.equal(elements[k], st.getElements(rec), sizes[k] + " bytes: elements of the struct");
        }
        rec.free();

        Status st = world.sendRecv(new int[3], 3, MPI.INT, partner, 20, new int[3], 3, MPI.INT, partner, 20);
        Check.equal(partner, st.getSource(), "status source");
        st.setElements(MPI.INT, 7);
        Check.equal(7, st.getCount(MPI.INT), "count after setElements(INT, 7)");
        Check.equal(28, st.getElements(MPI.BYTE), "BYTE elements after setElements(INT, 7)");
        st.setElements(MPI.BYTE, 6);
        Check.equal(MPI.UNDEFINED, st.getElements(MPI.INT), "INT elements of 6 bytes");
        Check.equal(3, st.getElements(MPI.SHORT), "SHORT elements of 6 bytes");
        Check.equal(partner, st.getSource(), "setElements leaves the source");
        Check.that(!st.isCancelled(), "a received message is not cancelled");
        st.setCancelled(true);
        Check.that(st.isCancelled(), "setCancelled(true)");
        st.setCancelled(false);
        Check.that(!st.isCancelled(), "setCancelled(false)");
    }

    static void negativeDisplacementsAfterAnOffset() throws MPIException {
        // a struct whose first block lies 44 bytes before the item, used 44 bytes into a byte[]
        // (a struct counts its offset in bytes, so a byte[] slice means the same in Open MPI's binding)
        Datatype back = Datatype.createStruct(new int[] {1, 2}, new int[] {-44, 4}, new Datatype[] {MPI.INT, MPI.INT});
        back.commit();
        Check.equal(-44, back.getTrueLb(), "true lower bound in bytes");
        int[] ints = new int[16];
        for (int i = 0; i < ints.length; i++) ints[i] = rank * 1000 + i;
        byte[] arr = nativeBytes(ints);
        int[] got = new int[6];
        // one item: ints 0, 12 and 13 of the array
        world.sendRecv(MPI.slice(arr, 44), 1, back, partner, 30, got, 3, MPI.INT, partner, 30);
        int q = partner * 1000;
        Check.array(new int[] {q, q + 12, q + 13, 0, 0, 0}, got, "struct with a negative displacement, from a slice");

        // receiving through the same type writes before the offset, and nowhere else
        int[] fill = new int[16];
        Arrays.fill(fill, -7);
        byte[] target = nativeBytes(fill);
        int[] vals = {rank + 1, rank + 2, rank + 3, 0, 0, 0};
        world.sendRecv(vals, 3, MPI.INT, partner, 31, MPI.slice(target, 44), 1, back, partner, 31);
        int[] expected = fill.clone();
        expected[0] = partner + 1;
        expected[12] = partner + 2;
        expected[13] = partner + 3;
        Check.that(Arrays.equals(nativeBytes(expected), target), "struct with a negative displacement, into a slice");

        // hindexed over doubles with a negative first displacement, count 2, on a heap slice
        Datatype hix = Datatype.createHIndexed(new int[] {1, 1}, new int[] {-16, 8}, MPI.DOUBLE);
        hix.commit();
        double[] ds = new double[8];
        for (int i = 0; i < ds.length; i++) ds[i] = rank + i / 10.0;
        double[] dgot = new double[4];
        // extent 32 bytes (-16..16); from double 2: item 0 takes doubles 0 and 3, item 1 doubles 4 and 7
        world.sendRecv(MPI.slice(ds, 2), 2, hix, partner, 32, dgot, 4, MPI.DOUBLE, partner, 32);
        Check.array(new double[] {partner, partner + 0.3, partner + 0.4, partner + 0.7}, dgot,
                "hindexed with a negative displacement, count 2");
        back.free();
        hix.free();
    }

    static void memoryStaysProtected() throws MPIException {
        Intracomm c = (Intracomm) world.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        Datatype back = Datatype.createHIndexed(new int[] {1}, new int[] {-8}, MPI.INT);
        back.commit();
        // from MPI.slice(array, 1) a displacement of -8 bytes is before the array: refused, nothing sent
        Check.bufferError(() -> c.send(MPI.slice(new int[4], 1), 1, back, partner, 40), "before the array");
        // a direct buffer is only its own bytes: nothing before its start
        Check.bufferError(() -> c.send(MPI.newIntBuffer(4), 1, back, partner, 40), "before a direct buffer");
        // 5 bytes do not fit an int[1]
        Check.bufferError(() -> c.recv(new int[1], 5, MPI.BYTE, partner, 40), "past the array's end");
        IntBuffer direct = MPI.newIntBuffer(2);
        Check.bufferError(() -> c.recv(direct, 3, MPI.INT, partner, 40), "past a direct buffer's end");
        back.free();
        c.free();
    }


    static void someWithNoActiveRequest() throws MPIException {
        Request[] none = new Request[0];
        Check.that(Request.testSome(none) == null, "testSome(empty) is null");
        Check.that(Request.waitSome(none) == null, "waitSome(empty) is null");
        Check.that(Request.testSomeStatus(none) == null, "testSomeStatus(empty) is null");
        Check.that(Request.waitSomeStatus(none) == null, "waitSomeStatus(empty) is null");

        // while a request is active testSome gives an array; once all completed (null requests), null
        IntBuffer in = MPI.newIntBuffer(2);
        Request[] rs = {world.iRecv(MPI.slice(in, 0), 1, MPI.INT, partner, 50),
                world.iRecv(MPI.slice(in, 1), 1, MPI.INT, partner, 51)};
        world.send(new int[] {rank}, 1, MPI.INT, partner, 50);
        world.send(new int[] {-rank}, 1, MPI.INT, partner, 51);
        int done = 0;
        while (done < 2) {
            int[] idx = Request.testSome(rs);
            Check.that(idx != null, "testSome with an active request is an array");
            done += idx.length;
        }
        Check.equal(partner, in.get(0), "testSome's first message");
        Check.equal(-partner, in.get(1), "testSome's second message");
        Check.that(Request.testSome(rs) == null, "testSome over completed requests is null");
        Check.that(Request.waitSome(rs) == null, "waitSome over completed requests is null");
        Check.that(Request.testSomeStatus(rs) == null, "testSomeStatus over completed requests is null");
        Check.that(Request.waitSomeStatus(rs) == null, "waitSomeStatus over completed requests is null");
        Check.equal(MPI.UNDEFINED, Request.testAny(rs), "testAny over completed requests");
    }

    /** Java nulls in a request array count as null requests here (Open MPI's binding rejects them). */
    static void javaNullRequests() throws MPIException {
        Request[] nulls = new Request[2];
        Check.that(Request.testSome(nulls) == null, "testSome(nulls) is null");
        Check.that(Request.waitSomeStatus(nulls) == null, "waitSomeStatus(nulls) is null");
    }
}
