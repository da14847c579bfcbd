package org.fthp.it.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Intercommunicators built with openPort/accept/connect between processes of
 * the job, as programs written for Open MPI's binding do to test
 * intercommunicator collectives: the even ranks accept, the odd ranks
 * connect, the port name travels from the even root to the odd root in a
 * char message. Then collectives across (barrier, bcast, allReduce,
 * allGather, merge), point-to-point across, a second connection on a port of
 * another process (COMM_SELF accepting one connecting rank), errors on a
 * port that is not one (MPI.ERR_PORT) and on spawning (MPI.ERR_SPAWN).
 * Needs an even number of ranks, at least 4.
 *
 * <p>Argument: iterations of traffic across the first intercommunicator,
 * 20 ms apart (default 0), for a test to kill a copy while it is in use.
 */
public final class CompatPorts {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Check.runAll(w, "CompatPorts", () -> {
            evenAcceptsOdd(w, iterations);
            selfAcceptsOne(w);
            badPortAndSpawn(w);
        });
        MPI.Finalize();
    }

    /** Sends the port name as the ompi-java tests do: its length, then its chars. */
    static void sendPort(String port, int dest) throws MPIException {
        char[] buf = new char[MPI.MAX_PORT_NAME];
        port.getChars(0, port.length(), buf, 0);
        MPI.COMM_WORLD.send(new int[] {port.length()}, 1, MPI.INT, dest, 1);
        MPI.COMM_WORLD.send(buf, port.length(), MPI.CHAR, dest, 1);
    }

    static String recvPort(int source) throws MPIException {
        int[] len = new int[1];
        MPI.COMM_WORLD.recv(len, 1, MPI.INT, source, 1);
        char[] buf = new char[len[0]];
        MPI.COMM_WORLD.recv(buf, len[0], MPI.CHAR, source, 1);
        return new String(buf);
    }

    static void evenAcceptsOdd(Intracomm w, int iterations) throws MPIException, InterruptedException {
        int rank = w.getRank(), size = w.getSize();
        Check.that(size >= 4 && size % 2 == 0, "needs an even number of ranks, at least 4");
        boolean even = rank % 2 == 0;
        Intracomm half = w.split(even ? 1 : 0, rank);
        int half_size = half.getSize(), lr = half.getRank();
        Intercomm inter;
        if (even) {
            // every even rank opens a port, as the ompi-java tests do; only the root's is significant
            String port = Intracomm.openPort();
            Check.that(port.length() <= MPI.MAX_PORT_NAME, "port name within MPI.MAX_PORT_NAME");
            sendPort(port, rank + 1);
            inter = half.accept(port, 0);
            Intracomm.closePort(port);
        } else {
            String port = recvPort(rank - 1);
            inter = half.connect(port, 0);
        }
        Check.that(inter.isInter(), "accept/connect gives an intercommunicator");
        Check.equal(half_size, inter.getSize(), "local size");
        Check.equal(lr, inter.getRank(), "local rank");
        Check.equal(size - half_size, inter.getRemoteSize(), "remote size");
        int remoteFirst = even ? 1 : 0; // world rank of remote rank 0; remote rank i is world 2i+remoteFirst

        inter.barrier();

        // bcast from the even root to the odd group
        int[] b = {-1, -1};
        if (even) {
            if (lr == 0) b = new int[] {7, 8};
            inter.bcast(b, 2, MPI.INT, lr == 0 ? MPI.ROOT : MPI.PROC_NULL);
        } else {
            inter.bcast(b, 2, MPI.INT, 0);
            Check.array(new int[] {7, 8}, b, "bcast across the port intercomm");
        }

        // allReduce over the remote group, allGather of the remote group's world ranks
        int[] sum = new int[1];
        inter.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        int expect = 0;
        int[] remoteWorld = new int[inter.getRemoteSize()];
        for (int i = 0; i < remoteWorld.length; i++) {
            remoteWorld[i] = 2 * i + remoteFirst;
            expect += remoteWorld[i];
        }
        Check.equal(expect, sum[0], "allReduce over the remote group");
        int[] gathered = new int[remoteWorld.length];
        inter.allGather(new int[] {rank}, 1, MPI.INT, gathered, 1, MPI.INT);
        Check.array(remoteWorld, gathered, "allGather of the remote group");

        // point-to-point across: local rank i with remote rank i
        int[] got = new int[1];
        inter.sendRecv(new int[] {rank * 3}, 1, MPI.INT, lr, 4, got, 1, MPI.INT, lr, 4);
        Check.equal(remoteWorld[lr] * 3, got[0], "sendRecv across the port intercomm");

        // merge: the accepting (even) group low
        Intracomm merged = inter.merge(!even);
        Check.equal(size, merged.getSize(), "merged size");
        Check.equal(even ? lr : half_size + lr, merged.getRank(), "merged rank, accepting group first");
        int[] all = new int[size];
        merged.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
        for (int i = 0; i < size; i++) {
            int wantWorld = i < half_size ? 2 * i : 2 * (i - half_size) + 1;
            Check.equal(wantWorld, all[i], "merged rank " + i + " is world rank");
        }
        merged.free();

        // traffic across while a test kills a copy: the repair rebuilds the port-built intercomm
        for (int it = 0; it < iterations; it++) {
            int[] s = new int[1];
            inter.allReduce(new int[] {rank + it}, s, 1, MPI.INT, MPI.SUM);
            Check.equal(expect + remoteWorld.length * it, s[0], "allReduce across, iteration " + it);
            inter.sendRecv(new int[] {rank * 1000 + it}, 1, MPI.INT, lr, 5, got, 1, MPI.INT, lr, 5);
            Check.equal(remoteWorld[lr] * 1000 + it, got[0], "sendRecv across, iteration " + it);
            Thread.sleep(20);
        }
        inter.disconnect();
        Check.that(inter.isNull(), "disconnected intercomm is null");
        half.free();
    }

    /**
     * The last rank accepts on COMM_SELF, rank 0 connects alone: a port
     * opened by another process than the first test's, two one-process groups.
     */
    static void selfAcceptsOne(Intracomm w) throws MPIException {
        int rank = w.getRank(), size = w.getSize(), last = size - 1;
        if (rank != 0 && rank != last) {
            return;
        }
        Intercomm inter;
        String unused = null;
        if (rank == last) {
            unused = Intracomm.openPort(); // a second open port: connections must find the right one
            String port = Intracomm.openPort();
            Check.that(!port.equals(unused), "two ports of one process differ");
            sendPort(port, 0);
            inter = MPI.COMM_SELF.accept(port, 0);
            Intracomm.closePort(port);
            Intracomm.closePort(unused);
        } else {
            inter = MPI.COMM_SELF.connect(recvPort(last), 0);
        }
        Check.equal(1, inter.getRemoteSize(), "one-process remote group");
        int[] x = new int[1];
        if (rank == 0) {
            inter.send(new int[] {4242}, 1, MPI.INT, 0, 9);
            inter.recv(x, 1, MPI.INT, 0, 10);
            Check.equal(last * 100, x[0], "reply across the COMM_SELF intercomm");
        } else {
            inter.recv(x, 1, MPI.INT, 0, 9);
            Check.equal(4242, x[0], "message across the COMM_SELF intercomm");
            inter.send(new int[] {last * 100}, 1, MPI.INT, 0, 10);
        }
        inter.barrier();
        inter.disconnect();
    }

    static void badPortAndSpawn(Intracomm w) throws MPIException {
        Intracomm d = w.dup();
        d.setErrhandler(MPI.ERRORS_RETURN);
        try {
            d.connect("tcp://not-a-port-of-this-job", 0);
            Check.that(false, "connect to a foreign port name must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_PORT, e.getErrorClass(), "connect to a foreign port: error class");
        }
        try {
            d.accept("fthp-port:0:99999", 0);
            Check.that(false, "accept on a port nobody opened must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_PORT, e.getErrorClass(), "accept on an unopened port: error class");
        }
        // a port error has no communicator: COMM_WORLD's handler applies, as in Open MPI
        w.setErrhandler(MPI.ERRORS_RETURN);
        try {
            Intracomm.closePort("fthp-port:0:99999");
            Check.that(false, "closing a port never opened must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_PORT, e.getErrorClass(), "closePort of an unopened port: error class");
        }
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
        try {
            d.spawn("java", new String[0], 1, MPI.INFO_NULL, 0, null);
            Check.that(false, "spawn must fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_SPAWN, e.getErrorClass(), "spawn: error class");
        }
        Check.that(Intercomm.getParent().isNull(), "no parent: the job was not spawned");
        d.free();
    }
}
