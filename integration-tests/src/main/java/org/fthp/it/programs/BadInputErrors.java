package org.fthp.it.programs;

import java.nio.IntBuffer;

import mpi.Comm;
import mpi.Datatype;
import mpi.File;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import mpi.Win;

/**
 * With MPI.ERRORS_RETURN every bad argument must become an MPIException of the
 * matching error class (and a non-empty message) and leave the job usable.
 * Prints "OK &lt;case&gt;" per case on rank 0 and "BadInputErrors OK rank r" at the end.
 */
public final class BadInputErrors {

    interface Call {
        void run() throws MPIException;
    }

    static int rank, size;
    static Intracomm world;
    static int cases;

    static void expect(String name, int errorClass, Call call) {
        MPIException caught = null;
        try {
            call.run();
        } catch (MPIException e) {
            caught = e;
        }
        Check.that(caught != null, name + ": no MPIException thrown");
        Check.equal(errorClass, caught.getErrorClass(),
                name + ": error class (message was: " + caught.getMessage() + ")");
        Check.that(caught.getMessage() != null && !caught.getMessage().isBlank(), name + ": non-empty message");
        ok(name);
    }

    /** Cases where only "an MPIException with a message" is specified (no error class). */
    static void expectAnyClass(String name, Call call) {
        MPIException caught = null;
        try {
            call.run();
        } catch (MPIException e) {
            caught = e;
        }
        Check.that(caught != null, name + ": no MPIException thrown");
        Check.that(caught.getMessage() != null && !caught.getMessage().isBlank(), name + ": non-empty message");
        ok(name);
    }

    static void ok(String name) {
        cases++;
        if (rank == 0) {
            System.out.println("OK " + name);
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        rank = world.getRank();
        size = world.getSize();
        Check.that(world.getErrhandler() != null, "getErrhandler");
        int[] ints = new int[10];

        // ranks
        expect("send to rank size", MPI.ERR_RANK, () -> world.send(ints, 1, MPI.INT, size, 0));
        expect("send to rank -5", MPI.ERR_RANK, () -> world.send(ints, 1, MPI.INT, -5, 0));
        expect("ssend to rank size+3", MPI.ERR_RANK, () -> world.sSend(ints, 1, MPI.INT, size + 3, 0));
        expect("isend to rank size", MPI.ERR_RANK, () -> world.iSend(MPI.newIntBuffer(1), 1, MPI.INT, size, 0));
        expect("recv from rank size", MPI.ERR_RANK, () -> world.recv(ints, 1, MPI.INT, size, 0));
        expect("recv from rank -7", MPI.ERR_RANK, () -> world.recv(ints, 1, MPI.INT, -7, 0));
        expect("irecv from rank size", MPI.ERR_RANK, () -> world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, size, 0));
        expect("probe from rank size", MPI.ERR_RANK, () -> world.probe(size, 0));
        expect("sendRecv with bad dest", MPI.ERR_RANK,
                () -> world.sendRecv(ints, 1, MPI.INT, size, 0, new int[1], 1, MPI.INT, 0, 0));

        // tags
        int tagUb = (Integer) world.getAttr(MPI.TAG_UB);
        Check.that(tagUb >= 32767, "TAG_UB is at least 32767, got " + tagUb);
        expect("send with tag -1", MPI.ERR_TAG, () -> world.send(ints, 1, MPI.INT, rank, -1));
        expect("send with tag -100", MPI.ERR_TAG, () -> world.send(ints, 1, MPI.INT, rank, -100));
        expect("isend with negative tag", MPI.ERR_TAG, () -> world.iSend(MPI.newIntBuffer(1), 1, MPI.INT, rank, -3));
        expect("recv with tag -100", MPI.ERR_TAG, () -> world.recv(ints, 1, MPI.INT, rank, -100));
        if (tagUb < Integer.MAX_VALUE) {
            expect("send with tag TAG_UB+1", MPI.ERR_TAG, () -> world.send(ints, 1, MPI.INT, rank, tagUb + 1));
            expect("irecv with tag Integer.MAX_VALUE", MPI.ERR_TAG,
                    () -> world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, rank, Integer.MAX_VALUE));
        } else {
            ok("send with tag TAG_UB+1 (skipped: TAG_UB is Integer.MAX_VALUE)");
            ok("irecv with tag Integer.MAX_VALUE (skipped)");
        }
        // the largest valid tag works (message to self)
        world.send(new int[] {42}, 1, MPI.INT, rank, tagUb);
        int[] got = new int[1];
        Check.equal(tagUb, world.recv(got, 1, MPI.INT, rank, tagUb).getTag(), "message with tag TAG_UB");
        Check.equal(42, got[0], "message with tag TAG_UB: data");

        // counts and buffers
        expect("send with count -1", MPI.ERR_COUNT, () -> world.send(ints, -1, MPI.INT, rank, 0));
        expect("recv with count -4", MPI.ERR_COUNT, () -> world.recv(ints, -4, MPI.INT, rank, 0));
        expect("send count larger than array", MPI.ERR_BUFFER, () -> world.send(ints, 11, MPI.INT, rank, 0));
        expect("recv count larger than array", MPI.ERR_BUFFER, () -> world.recv(ints, 100, MPI.INT, rank, 0));
        expect("send slice count past end", MPI.ERR_BUFFER, () -> world.send(MPI.slice(ints, 8), 3, MPI.INT, rank, 0));
        // any array with any datatype, as its raw bytes (Open MPI's binding): only bytes past the array are refused
        expect("send int[] as MPI.DOUBLE past the array's bytes", MPI.ERR_BUFFER,
                () -> world.send(ints, 6, MPI.DOUBLE, rank, 0));
        expect("recv into double[] as MPI.INT past the array's bytes", MPI.ERR_BUFFER,
                () -> world.recv(new double[1], 3, MPI.INT, rank, 0));
        expect("send null buffer with count 3", MPI.ERR_BUFFER, () -> world.send(null, 3, MPI.INT, rank, 0));
        expect("send a String as buffer", MPI.ERR_BUFFER, () -> world.send("hello", 1, MPI.BYTE, rank, 0));
        expect("iSend of a non-direct buffer", MPI.ERR_BUFFER,
                () -> world.iSend(IntBuffer.allocate(4), 4, MPI.INT, rank, 0));
        expect("iRecv into a non-direct buffer", MPI.ERR_BUFFER,
                () -> world.iRecv(IntBuffer.wrap(new int[4]), 4, MPI.INT, rank, 0));
        expect("iSend direct buffer too small", MPI.ERR_BUFFER,
                () -> world.iSend(MPI.newIntBuffer(2), 3, MPI.INT, rank, 0));

        // datatypes
        Datatype uncommitted = Datatype.createContiguous(2, MPI.INT);
        expect("send with an uncommitted datatype", MPI.ERR_TYPE, () -> world.send(ints, 1, uncommitted, rank, 0));
        uncommitted.free();
        Datatype freed = Datatype.createVector(2, 1, 2, MPI.INT);
        freed.commit();
        freed.free();
        expect("send with a freed datatype", MPI.ERR_TYPE, () -> world.send(ints, 1, freed, rank, 0));
        expect("send with a null datatype", MPI.ERR_TYPE, () -> world.send(ints, 1, null, rank, 0));

        // collectives
        expect("bcast with root size", MPI.ERR_ROOT, () -> world.bcast(ints, 1, MPI.INT, size));
        expect("bcast with root -1", MPI.ERR_ROOT, () -> world.bcast(ints, 1, MPI.INT, -1));
        expect("reduce with root size+1", MPI.ERR_ROOT,
                () -> world.reduce(ints, new int[10], 1, MPI.INT, MPI.SUM, size + 1));

        // truncation: a 10-int message into a 5-int receive (error comes from the native library)
        int partner = rank ^ 1;
        if (partner < size) {
            int[] ten = new int[10];
            for (int i = 0; i < 10; i++) ten[i] = rank * 10 + i;
            if (rank % 2 == 0) {
                world.send(ten, 10, MPI.INT, partner, 77);
                ok("truncation (sender side)");
            } else {
                expect("recv 10 ints into a 5-int receive", MPI.ERR_TRUNCATE,
                        () -> world.recv(new int[5], 5, MPI.INT, partner, 77));
            }
        }
        world.barrier();

        // one-sided communication and MPI-IO are not supported: windows and files can be made (for their
        // error handlers, as in Open MPI's binding), their operations throw through their handlers
        Win win = new Win(MPI.newIntBuffer(4), 4, 1, MPI.INFO_NULL, world);
        win.setErrhandler(MPI.ERRORS_RETURN);
        expect("Win one-sided operation", MPI.ERR_UNSUPPORTED_OPERATION, () -> win.fence(0));
        win.free();
        Win allocated = new Win(4, 1, MPI.INFO_NULL, world, MPI.newIntBuffer(4), Win.FLAVOR_PRIVATE);
        allocated.setErrhandler(MPI.ERRORS_RETURN);
        expect("Win allocate one-sided operation", MPI.ERR_UNSUPPORTED_OPERATION,
                () -> allocated.put(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0, 1, MPI.INT));
        allocated.free();
        File file = new File(world, "/tmp/fthp-badinput-" + rank + ".dat", MPI.MODE_CREATE | MPI.MODE_RDWR);
        expect("File I/O operation", MPI.ERR_UNSUPPORTED_OPERATION, () -> file.write(ints, 1, MPI.INT));
        file.close();

        // a reduction whose own operation fails on every rank: each rank's call reports it, and the collectives
        // after it still pair up (the failed one still made all its exchanges, so none is left on the wire)
        Op failing = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) throws MPIException {
                throw new MPIException("the program's reduction failed");
            }
        }, true);
        for (int count : new int[] {1, 5000}) {   // recursive doubling, and above its 16 KiB: gathered
            expectAnyClass("allReduce whose operation throws, " + count + " ints",
                    () -> world.allReduce(new int[count], new int[count], count, MPI.INT, failing));
        }
        int[] afterFailed = {1};
        world.allReduce(afterFailed, 1, MPI.INT, MPI.SUM);
        Check.equal(size, afterFailed[0], "allReduce after one whose operation threw");
        failing.free();

        // freed communicators (last: the cases below abort the job if the error handler is not applied right)
        Intracomm explicit = world.dup();
        explicit.setErrhandler(MPI.ERRORS_RETURN);
        explicit.free();
        Check.that(explicit.isNull(), "freed communicator isNull");
        expect("send on a freed communicator (explicit ERRORS_RETURN)", MPI.ERR_COMM,
                () -> explicit.send(ints, 1, MPI.INT, 0, 0));
        expect("getRank of a freed communicator", MPI.ERR_COMM, () -> explicit.getRank());
        expect("barrier on a freed communicator", MPI.ERR_COMM, () -> explicit.barrier());
        expect("free COMM_WORLD", MPI.ERR_COMM, () -> world.free());
        // MPI_Comm_dup copies the error handler: an error on the copy is returned, not fatal
        Intracomm inherited = world.dup();
        Check.equal(size, inherited.getSize(), "dup size");
        expect("dup inherits ERRORS_RETURN (send to rank size on the dup)", MPI.ERR_RANK,
                () -> inherited.send(ints, 1, MPI.INT, size, 0));
        inherited.free();
        // the plain program: dup, free, use
        Intracomm dup = world.dup();
        dup.free();
        expect("send on a freed communicator", MPI.ERR_COMM, () -> dup.send(ints, 1, MPI.INT, 0, 0));
        world.barrier();

        // after all of that the job still works
        int[] sum = {rank + 1};
        world.allReduce(sum, 1, MPI.INT, MPI.SUM);
        Check.equal((long) size * (size + 1) / 2, sum[0], "allReduce after errors");
        int[] token = {rank};
        world.sendRecvReplace(token, 1, MPI.INT, (rank + 1) % size, 5, (rank - 1 + size) % size, 5);
        Check.equal((rank - 1 + size) % size, token[0], "ring after errors");
        int[] all = new int[1];
        all[0] = cases;
        world.allReduce(all, 1, MPI.INT, MPI.MIN);
        Check.equal(cases, all[0], "every rank checked the same number of cases");
        if (rank == 0) {
            System.out.println("cases " + cases);
        }
        System.out.println("BadInputErrors OK rank " + rank);
        MPI.Finalize();
    }
}
