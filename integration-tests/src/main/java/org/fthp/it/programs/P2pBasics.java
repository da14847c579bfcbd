package org.fthp.it.programs;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Blocking point-to-point: every primitive array type (incl. count 0),
 * sendRecv / sendRecvReplace rings, bSend / sSend / rSend, PROC_NULL,
 * Status accessors, ANY_SOURCE / ANY_TAG, non-overtaking order, a 4 MiB
 * message, direct buffers and MPI.slice offsets. Needs an even number of ranks.
 * Prints "P2pBasics OK rank r" at the end on every rank.
 */
public final class P2pBasics {

    static final int N = 17;

    static int rank, size, partner, next, prev;
    static boolean even;
    static Comm world;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        Check.that(size % 2 == 0, "P2pBasics needs an even number of ranks, got " + size);
        even = rank % 2 == 0;
        partner = even ? rank + 1 : rank - 1;
        next = (rank + 1) % size;
        prev = (rank - 1 + size) % size;

        java.util.List<String> skip = java.util.Arrays.asList(args.length > 0 && args[0].startsWith("skip=")
                ? args[0].substring(5).split(",") : new String[0]);
        // Sections run in this order; an argument "skip=a,b" leaves sections out (for diagnosing by hand only).
        String[] names = {"primitiveTypes", "zeroCount", "sendRecvRing", "sendRecvReplaceRing", "bufferedSend",
            "synchronousSend", "readySend", "anySourceAnyTag", "ordering", "largeMessage", "directBuffers",
            "heapSlices", "procNull"};
        for (String name : names) {
            if (skip.contains(name)) {
                continue;
            }
            switch (name) {
                case "primitiveTypes" -> primitiveTypes();
                case "zeroCount" -> zeroCount();
                case "sendRecvRing" -> sendRecvRing();
                case "sendRecvReplaceRing" -> sendRecvReplaceRing();
                case "bufferedSend" -> bufferedSend();
                case "synchronousSend" -> synchronousSend();
                case "readySend" -> readySend();
                case "anySourceAnyTag" -> anySourceAnyTag();
                case "ordering" -> ordering();
                case "largeMessage" -> largeMessage();
                case "directBuffers" -> directBuffers();
                case "heapSlices" -> heapSlices();
                case "procNull" -> procNull();
                default -> throw new AssertionError(name);
            }
        }

        world.barrier();
        System.out.println("P2pBasics OK rank " + rank);
        MPI.Finalize();
    }

    /** even ranks send then receive; odd ranks receive then send (pairs never deadlock). */
    interface Exchange {
        void send() throws MPIException;

        void recv() throws MPIException;
    }

    static void pairwise(Exchange x) throws MPIException {
        if (even) {
            x.send();
            x.recv();
        } else {
            x.recv();
            x.send();
        }
    }

    static void checkStatus(Status st, int source, int tag, int count, Datatype type, String what)
            throws MPIException {
        Check.equal(source, st.getSource(), what + ": status source");
        Check.equal(tag, st.getTag(), what + ": status tag");
        Check.equal(count, st.getCount(type), what + ": status count");
        Check.equal(count, st.getElements(type), what + ": status elements");
    }

    static void primitiveTypes() throws MPIException {
        int s = rank, p = partner;
        // byte
        pairwise(new Exchange() {
            public void send() throws MPIException {
                byte[] a = new byte[N];
                for (int i = 0; i < N; i++) a[i] = (byte) (s * 31 + i - 8);
                world.send(a, N, MPI.BYTE, p, 1);
            }

            public void recv() throws MPIException {
                byte[] a = new byte[N];
                checkStatus(world.recv(a, N, MPI.BYTE, p, 1), p, 1, N, MPI.BYTE, "byte");
                for (int i = 0; i < N; i++) Check.equal((byte) (p * 31 + i - 8), a[i], "byte[" + i + "]");
            }
        });
        // char
        pairwise(new Exchange() {
            public void send() throws MPIException {
                char[] a = new char[N];
                for (int i = 0; i < N; i++) a[i] = (char) ('A' + s + i + (i == 3 ? 0x4e00 : 0));
                world.send(a, N, MPI.CHAR, p, 2);
            }

            public void recv() throws MPIException {
                char[] a = new char[N];
                checkStatus(world.recv(a, N, MPI.CHAR, p, 2), p, 2, N, MPI.CHAR, "char");
                for (int i = 0; i < N; i++) Check.equal((char) ('A' + p + i + (i == 3 ? 0x4e00 : 0)), a[i], "char[" + i + "]");
            }
        });
        // short
        pairwise(new Exchange() {
            public void send() throws MPIException {
                short[] a = new short[N];
                for (int i = 0; i < N; i++) a[i] = (short) (s * 1000 - i * 777);
                world.send(a, N, MPI.SHORT, p, 3);
            }

            public void recv() throws MPIException {
                short[] a = new short[N];
                checkStatus(world.recv(a, N, MPI.SHORT, p, 3), p, 3, N, MPI.SHORT, "short");
                for (int i = 0; i < N; i++) Check.equal((short) (p * 1000 - i * 777), a[i], "short[" + i + "]");
            }
        });
        // boolean
        pairwise(new Exchange() {
            public void send() throws MPIException {
                boolean[] a = new boolean[N];
                for (int i = 0; i < N; i++) a[i] = (s + i) % 3 == 0;
                world.send(a, N, MPI.BOOLEAN, p, 4);
            }

            public void recv() throws MPIException {
                boolean[] a = new boolean[N];
                Arrays.fill(a, true);
                checkStatus(world.recv(a, N, MPI.BOOLEAN, p, 4), p, 4, N, MPI.BOOLEAN, "boolean");
                for (int i = 0; i < N; i++) Check.equal((p + i) % 3 == 0, a[i], "boolean[" + i + "]");
            }
        });
        // int
        pairwise(new Exchange() {
            public void send() throws MPIException {
                int[] a = new int[N];
                for (int i = 0; i < N; i++) a[i] = s * 100000 - i * 7 - 3;
                world.send(a, N, MPI.INT, p, 5);
            }

            public void recv() throws MPIException {
                int[] a = new int[N];
                checkStatus(world.recv(a, N, MPI.INT, p, 5), p, 5, N, MPI.INT, "int");
                for (int i = 0; i < N; i++) Check.equal(p * 100000 - i * 7 - 3, a[i], "int[" + i + "]");
            }
        });
        // long
        pairwise(new Exchange() {
            public void send() throws MPIException {
                long[] a = new long[N];
                for (int i = 0; i < N; i++) a[i] = ((long) (s + 1) << 40) - i * 13L;
                world.send(a, N, MPI.LONG, p, 6);
            }

            public void recv() throws MPIException {
                long[] a = new long[N];
                checkStatus(world.recv(a, N, MPI.LONG, p, 6), p, 6, N, MPI.LONG, "long");
                for (int i = 0; i < N; i++) Check.equal(((long) (p + 1) << 40) - i * 13L, a[i], "long[" + i + "]");
            }
        });
        // float
        pairwise(new Exchange() {
            public void send() throws MPIException {
                float[] a = new float[N];
                for (int i = 0; i < N; i++) a[i] = s + i * 0.25f - 1.5f;
                world.send(a, N, MPI.FLOAT, p, 7);
            }

            public void recv() throws MPIException {
                float[] a = new float[N];
                checkStatus(world.recv(a, N, MPI.FLOAT, p, 7), p, 7, N, MPI.FLOAT, "float");
                for (int i = 0; i < N; i++) Check.equal((double) (p + i * 0.25f - 1.5f), (double) a[i], "float[" + i + "]");
            }
        });
        // double
        pairwise(new Exchange() {
            public void send() throws MPIException {
                double[] a = new double[N];
                for (int i = 0; i < N; i++) a[i] = s * 1e6 + i * 0.5 + 1e-9;
                world.send(a, N, MPI.DOUBLE, p, 8);
            }

            public void recv() throws MPIException {
                double[] a = new double[N];
                checkStatus(world.recv(a, N, MPI.DOUBLE, p, 8), p, 8, N, MPI.DOUBLE, "double");
                for (int i = 0; i < N; i++) Check.equal(p * 1e6 + i * 0.5 + 1e-9, a[i], "double[" + i + "]");
            }
        });
        // a receive buffer larger than the message: only the sent part is written
        pairwise(new Exchange() {
            public void send() throws MPIException {
                world.send(new int[] {s + 10, s + 20, s + 30}, 3, MPI.INT, p, 9);
            }

            public void recv() throws MPIException {
                int[] a = new int[6];
                Arrays.fill(a, -1);
                checkStatus(world.recv(a, 6, MPI.INT, p, 9), p, 9, 3, MPI.INT, "short message into bigger buffer");
                Check.array(new int[] {p + 10, p + 20, p + 30, -1, -1, -1}, a, "short message into bigger buffer");
            }
        });
    }

    static void zeroCount() throws MPIException {
        int p = partner;
        Datatype[] types = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};
        Object[] empty = {new byte[0], new char[0], new short[0], new boolean[0], new int[0], new long[0],
            new float[0], new double[0]};
        for (int t = 0; t < types.length; t++) {
            int tt = t;
            pairwise(new Exchange() {
                public void send() throws MPIException {
                    world.send(empty[tt], 0, types[tt], p, 20 + tt);
                }

                public void recv() throws MPIException {
                    checkStatus(world.recv(empty[tt], 0, types[tt], p, 20 + tt), p, 20 + tt, 0, types[tt],
                            "zero-count type #" + tt);
                }
            });
        }
        // count 0 from a non-empty array leaves the receive buffer untouched
        pairwise(new Exchange() {
            public void send() throws MPIException {
                world.send(new int[] {1, 2, 3}, 0, MPI.INT, p, 30);
            }

            public void recv() throws MPIException {
                int[] a = {-7, -8};
                checkStatus(world.recv(a, 2, MPI.INT, p, 30), p, 30, 0, MPI.INT, "zero-count into non-empty");
                Check.array(new int[] {-7, -8}, a, "zero-count leaves buffer");
            }
        });
    }

    static void sendRecvRing() throws MPIException {
        int[] out = new int[5];
        for (int i = 0; i < 5; i++) out[i] = rank * 10 + i;
        long[] in = new long[3];
        long[] lout = {rank * 3L, rank * 3L + 1, rank * 3L + 2};
        int[] inInts = new int[5];
        Status st = world.sendRecv(out, 5, MPI.INT, next, 40, inInts, 5, MPI.INT, prev, 40);
        checkStatus(st, prev, 40, 5, MPI.INT, "sendRecv ring");
        for (int i = 0; i < 5; i++) Check.equal(prev * 10 + i, inInts[i], "sendRecv ring [" + i + "]");
        // different send and receive types/counts, receive with wildcards
        st = world.sendRecv(lout, 3, MPI.LONG, prev, 41, in, 3, MPI.LONG, MPI.ANY_SOURCE, 41);
        checkStatus(st, next, 41, 3, MPI.LONG, "sendRecv reverse ring");
        for (int i = 0; i < 3; i++) Check.equal(next * 3L + i, in[i], "sendRecv reverse ring [" + i + "]");
    }

    static void sendRecvReplaceRing() throws MPIException {
        double[] buf = new double[7];
        for (int i = 0; i < 7; i++) buf[i] = rank + i / 8.0;
        Status st = world.sendRecvReplace(buf, 7, MPI.DOUBLE, next, 42, prev, 42);
        checkStatus(st, prev, 42, 7, MPI.DOUBLE, "sendRecvReplace");
        for (int i = 0; i < 7; i++) Check.equal(prev + i / 8.0, buf[i], "sendRecvReplace [" + i + "]");
        // around the ring size times: the data comes back home
        int[] token = {rank, rank * rank};
        for (int k = 0; k < size; k++) {
            world.sendRecvReplace(token, 2, MPI.INT, next, 43, prev, MPI.ANY_TAG);
        }
        Check.array(new int[] {rank, rank * rank}, token, "sendRecvReplace full circle");
    }

    static void bufferedSend() throws MPIException {
        int p = partner;
        byte[] attached = new byte[4 * (64 * 4 + MPI.BSEND_OVERHEAD)];
        MPI.attachBuffer(attached);
        int[] out = new int[64];
        for (int i = 0; i < 64; i++) out[i] = rank * 64 + i;
        // both sides bSend first: buffered sends complete locally, so no deadlock
        world.bSend(out, 64, MPI.INT, p, 50);
        world.bSend(new int[] {rank}, 1, MPI.INT, p, 51);
        int[] in = new int[64];
        checkStatus(world.recv(in, 64, MPI.INT, p, 50), p, 50, 64, MPI.INT, "bSend");
        for (int i = 0; i < 64; i++) Check.equal(p * 64 + i, in[i], "bSend [" + i + "]");
        int[] one = new int[1];
        world.recv(one, 1, MPI.INT, p, 51);
        Check.equal(p, one[0], "bSend second");
        byte[] detached = MPI.detachBuffer();
        Check.that(detached == attached, "detachBuffer returns the attached array");
    }

    static void synchronousSend() throws MPIException {
        int s = rank, p = partner;
        pairwise(new Exchange() {
            public void send() throws MPIException {
                world.sSend(new long[] {s * 7L, -s}, 2, MPI.LONG, p, 52);
            }

            public void recv() throws MPIException {
                long[] a = new long[2];
                checkStatus(world.recv(a, 2, MPI.LONG, p, 52), p, 52, 2, MPI.LONG, "sSend");
                Check.equal(p * 7L, a[0], "sSend [0]");
                Check.equal(-p, a[1], "sSend [1]");
            }
        });
    }

    static void readySend() throws MPIException {
        // odd ranks post the receive, a barrier guarantees it is posted before the even rank's rSend
        IntBuffer in = MPI.newIntBuffer(4);
        Request r = null;
        if (!even) {
            r = world.iRecv(in, 4, MPI.INT, partner, 53);
        }
        world.barrier();
        if (even) {
            world.rSend(new int[] {rank, 1, 2, 3}, 4, MPI.INT, partner, 53);
        } else {
            Status st = r.waitStatus();
            checkStatus(st, partner, 53, 4, MPI.INT, "rSend");
            for (int i = 0; i < 4; i++) Check.equal(i == 0 ? partner : i, in.get(i), "rSend [" + i + "]");
        }
        world.barrier();
    }

    static void procNull() throws MPIException {
        int[] a = {5, 6, 7};
        world.send(a, 3, MPI.INT, MPI.PROC_NULL, 60);
        world.sSend(a, 3, MPI.INT, MPI.PROC_NULL, 60);
        world.rSend(a, 3, MPI.INT, MPI.PROC_NULL, 60);
        int[] b = {-1, -2, -3};
        Status st = world.recv(b, 3, MPI.INT, MPI.PROC_NULL, 60);
        Check.equal(MPI.PROC_NULL, st.getSource(), "recv from PROC_NULL: source");
        Check.equal(MPI.ANY_TAG, st.getTag(), "recv from PROC_NULL: tag");
        Check.equal(0, st.getCount(MPI.INT), "recv from PROC_NULL: count");
        Check.array(new int[] {-1, -2, -3}, b, "recv from PROC_NULL leaves buffer");
        // sendRecv with PROC_NULL on both sides
        st = world.sendRecv(a, 3, MPI.INT, MPI.PROC_NULL, 61, b, 3, MPI.INT, MPI.PROC_NULL, 61);
        Check.equal(MPI.PROC_NULL, st.getSource(), "sendRecv PROC_NULL: source");
        Check.equal(0, st.getCount(MPI.INT), "sendRecv PROC_NULL: count");
        Check.array(new int[] {-1, -2, -3}, b, "sendRecv PROC_NULL leaves buffer");
        // nonblocking receive from PROC_NULL completes at once
        Status ist = world.iRecv(MPI.newIntBuffer(3), 3, MPI.INT, MPI.PROC_NULL, 62).waitStatus();
        Check.equal(MPI.PROC_NULL, ist.getSource(), "iRecv from PROC_NULL: source");
        Check.equal(0, ist.getCount(MPI.INT), "iRecv from PROC_NULL: count");
    }

    static void anySourceAnyTag() throws MPIException {
        if (rank == 0) {
            Set<Integer> sources = new HashSet<>();
            for (int k = 1; k < size; k++) {
                int[] a = new int[4];
                Status st = world.recv(a, 4, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int src = st.getSource();
                Check.that(src >= 1 && src < size, "ANY_SOURCE: source in range, got " + src);
                Check.that(sources.add(src), "ANY_SOURCE: source " + src + " seen twice");
                Check.equal(100 + src, st.getTag(), "ANY_TAG: tag of message from " + src);
                Check.equal(2, st.getCount(MPI.INT), "ANY_SOURCE: count");
                Check.equal(2, st.getElements(MPI.INT), "ANY_SOURCE: elements");
                Check.array(new int[] {src, src * src, 0, 0}, a, "ANY_SOURCE data from " + src);
            }
            Check.equal(size - 1, sources.size(), "ANY_SOURCE: number of distinct sources");
            world.barrier(); // only now may the senders send their next messages
            // ANY_TAG with a fixed source
            for (int k = 1; k < size; k++) {
                int[] a = new int[1];
                Status st = world.recv(a, 1, MPI.INT, k, MPI.ANY_TAG);
                Check.equal(k, st.getSource(), "fixed source, ANY_TAG: source");
                Check.equal(200 + k, st.getTag(), "fixed source, ANY_TAG: tag");
                Check.equal(-k, a[0], "fixed source, ANY_TAG: data");
            }
            // ANY_SOURCE with a fixed tag: only the matching rank's message is taken
            for (int k = size - 1; k >= 1; k--) {
                int[] a = new int[1];
                Status st = world.recv(a, 1, MPI.INT, MPI.ANY_SOURCE, 300 + k);
                Check.equal(k, st.getSource(), "ANY_SOURCE, fixed tag: source");
                Check.equal(300 + k, st.getTag(), "ANY_SOURCE, fixed tag: tag");
                Check.equal(k * 11, a[0], "ANY_SOURCE, fixed tag: data");
            }
        } else {
            world.send(new int[] {rank, rank * rank}, 2, MPI.INT, 0, 100 + rank);
            world.barrier(); // rank 0's ANY_SOURCE/ANY_TAG receives must not see the next messages
            world.send(new int[] {-rank}, 1, MPI.INT, 0, 200 + rank);
            world.send(new int[] {rank * 11}, 1, MPI.INT, 0, 300 + rank);
        }
        world.barrier();
    }

    static void ordering() throws MPIException {
        final int m = 300;
        int p = partner;
        if (even) {
            for (int i = 0; i < m; i++) {
                // alternate sizes so eager and larger messages interleave
                int len = (i % 10 == 9) ? 5000 : 1;
                int[] a = new int[len];
                Arrays.fill(a, i * 3 + rank);
                world.send(a, len, MPI.INT, p, 70);
            }
        } else {
            int[] a = new int[5000];
            for (int i = 0; i < m; i++) {
                int len = (i % 10 == 9) ? 5000 : 1;
                Status st = (i % 2 == 0) ? world.recv(a, 5000, MPI.INT, p, 70)
                        : world.recv(a, 5000, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(len, st.getCount(MPI.INT), "ordering: length of message " + i);
                Check.equal(i * 3 + p, a[0], "ordering: message " + i + " arrived out of order");
                Check.equal(i * 3 + p, a[len - 1], "ordering: last element of message " + i);
            }
        }
        world.barrier();
    }

    static void largeMessage() throws MPIException {
        final int n = 4 * 1024 * 1024 / 8; // 4 MiB of doubles
        int s = rank, p = partner;
        pairwise(new Exchange() {
            public void send() throws MPIException {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) a[i] = s * 1e7 + i;
                world.send(a, n, MPI.DOUBLE, p, 80);
            }

            public void recv() throws MPIException {
                double[] a = new double[n];
                checkStatus(world.recv(a, n, MPI.DOUBLE, p, 80), p, 80, n, MPI.DOUBLE, "4 MiB message");
                for (int i = 0; i < n; i++) {
                    if (a[i] != p * 1e7 + i) {
                        Check.equal(p * 1e7 + i, a[i], "4 MiB message [" + i + "]");
                    }
                }
            }
        });
    }

    static void directBuffers() throws MPIException {
        int s = rank, p = partner;
        // whole direct buffers; position() is ignored (data starts at the base address)
        pairwise(new Exchange() {
            public void send() throws MPIException {
                DoubleBuffer b = MPI.newDoubleBuffer(10);
                Check.that(b.isDirect(), "MPI.newDoubleBuffer is direct");
                for (int i = 0; i < 10; i++) b.put(i, s + i * 0.125);
                b.position(7);
                world.send(b, 10, MPI.DOUBLE, p, 90);
            }

            public void recv() throws MPIException {
                DoubleBuffer b = MPI.newDoubleBuffer(10);
                b.position(3);
                checkStatus(world.recv(b, 10, MPI.DOUBLE, p, 90), p, 90, 10, MPI.DOUBLE, "direct buffer");
                for (int i = 0; i < 10; i++) Check.equal(p + i * 0.125, b.get(i), "direct buffer [" + i + "]");
            }
        });
        // MPI.slice(directBuffer, offset)
        pairwise(new Exchange() {
            public void send() throws MPIException {
                DoubleBuffer b = MPI.newDoubleBuffer(9);
                for (int i = 0; i < 9; i++) b.put(i, -s - i);
                DoubleBuffer sl = MPI.slice(b, 2);
                Check.that(sl.isDirect(), "slice of a direct buffer is direct");
                world.send(sl, 3, MPI.DOUBLE, p, 93);
            }

            public void recv() throws MPIException {
                DoubleBuffer b = MPI.newDoubleBuffer(9);
                for (int i = 0; i < 9; i++) b.put(i, 999);
                world.recv(MPI.slice(b, 4), 3, MPI.DOUBLE, p, 93);
                for (int i = 0; i < 9; i++) {
                    double want = (i >= 4 && i < 7) ? -p - (i - 4 + 2) : 999;
                    Check.equal(want, b.get(i), "slice(DoubleBuffer, 4) [" + i + "]");
                }
            }
        });
    }

    static void heapSlices() throws MPIException {
        int s = rank, p = partner;
        // MPI.slice(array, offset): send src[3..6], receive into dst[5..8]
        pairwise(new Exchange() {
            public void send() throws MPIException {
                double[] src = new double[12];
                for (int i = 0; i < 12; i++) src[i] = s * 100 + i;
                world.send(MPI.slice(src, 3), 4, MPI.DOUBLE, p, 91);
                int[] isrc = new int[10];
                for (int i = 0; i < 10; i++) isrc[i] = s * 1000 + i;
                world.send(MPI.slice(isrc, 6), 4, MPI.INT, p, 92);
            }

            public void recv() throws MPIException {
                double[] dst = new double[12];
                Arrays.fill(dst, -1);
                checkStatus(world.recv(MPI.slice(dst, 5), 4, MPI.DOUBLE, p, 91), p, 91, 4, MPI.DOUBLE, "slice(array)");
                for (int i = 0; i < 12; i++) {
                    double want = (i >= 5 && i < 9) ? p * 100 + (i - 5 + 3) : -1;
                    Check.equal(want, dst[i], "slice(double[], 5) [" + i + "]");
                }
                int[] idst = new int[8];
                Arrays.fill(idst, -1);
                world.recv(MPI.slice(idst, 2), 4, MPI.INT, p, 92);
                Check.array(new int[] {-1, -1, p * 1000 + 6, p * 1000 + 7, p * 1000 + 8, p * 1000 + 9, -1, -1}, idst,
                        "slice(int[], 2)");
            }
        });
        // a direct IntBuffer sent with iSend, received into a heap slice
        pairwise(new Exchange() {
            public void send() throws MPIException {
                IntBuffer b = MPI.newIntBuffer(5);
                for (int i = 0; i < 5; i++) b.put(i, s * 5 + i);
                world.iSend(MPI.slice(b, 1), 4, MPI.INT, p, 94).waitFor();
            }

            public void recv() throws MPIException {
                int[] a = new int[7];
                world.recv(MPI.slice(a, 3), 4, MPI.INT, p, 94);
                Check.array(new int[] {0, 0, 0, p * 5 + 1, p * 5 + 2, p * 5 + 3, p * 5 + 4}, a, "direct slice -> heap slice");
            }
        });
    }
}
