package org.fthp.empi.fast;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.fthp.empi.Empi;

/**
 * Run by {@link JniCallsTest} in a JVM of its own (MPI initializes once per process): a singleton MPI process
 * sends headed messages to itself through {@link JniCalls} and checks what arrives. Prints "JniCallsSelfCheck OK"
 * and exits 0, or names the first mismatch and exits 1.
 */
public final class JniCallsSelfCheck {

    private static final int HEADER = 24;

    private JniCallsSelfCheck() {}

    public static void main(String[] args) {
        Arena arena = Arena.ofAuto();
        Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, 0, arena.allocate(ValueLayout.JAVA_INT));
        Empi.commSetErrhandler(Empi.COMM_WORLD, Empi.ERRORS_RETURN);
        check(JniCalls.AVAILABLE, "the library built and loaded with EMPI's request and status sizes");
        long sendStaging = arena.allocate(256, 64).address();
        long recvStaging = arena.allocate(256, 64).address();
        long sendRequest = Empi.allocateHandles(arena, 1).address();
        long recvRequest = Empi.allocateHandles(arena, 1).address();
        status = Empi.allocateStatuses(arena, 1).address();
        int[] out = new int[6];

        // a byte[] payload from byte 3 on, into a byte[] from byte 0
        byte[] sent = new byte[20];
        for (int i = 0; i < sent.length; i++) sent[i] = (byte) (i * 7 + 1);
        byte[] got = new byte[16];
        int r = JniCalls.irecvHeaded(0, 9, Empi.COMM_WORLD, recvRequest, recvStaging, HEADER + got.length);
        check(r == 0, "irecvHeaded posts");
        r = JniCalls.sendHeaded(sent, true, 3, 12, sendStaging, 41, 5, 0x1_0000_0002L, 2, 0, 9, Empi.COMM_WORLD,
                sendRequest, status, 1);
        check(r >= 0, "sendHeaded posts: " + r);
        while (r == 0) r = JniCalls.test(sendRequest, status);
        r = poll(recvRequest, recvStaging, HEADER + got.length, got, true, 0, 1, got.length, out);
        check(r == 1, "the receive completes: " + r);
        check(Arrays.equals(out, new int[] {2, 12, 5, 9, 2, 1}), "header and tag: " + Arrays.toString(out));
        check(Arrays.equals(Arrays.copyOfRange(got, 0, 12), Arrays.copyOfRange(sent, 3, 15)), "the bytes");
        check(got[12] == 0, "nothing past the payload");

        // an int[] payload (pinned for the copy), received as whole 8-byte items: 3 of the 28 bytes fit 2 items
        int[] ints = {10, 20, 30, 40, 50, 60, 70};
        int[] into = new int[6];
        r = JniCalls.irecvHeaded(0, 4, Empi.COMM_WORLD, recvRequest, recvStaging, HEADER + 28);
        r = JniCalls.sendHeaded(ints, false, 0, 28, sendStaging, 1, 0, 7, 0, 0, 4, Empi.COMM_WORLD, sendRequest,
                status, 8);
        while (r == 0) r = JniCalls.test(sendRequest, status);
        r = poll(recvRequest, recvStaging, HEADER + 28, into, false, 4, 8, 2, out);
        check(r == 1 && out[1] == 28, "the int payload's header");
        check(Arrays.equals(into, new int[] {0, 10, 20, 30, 40, 0}), "two whole items from byte 4: "
                + Arrays.toString(into));

        // a message longer than the posted receive: MPI_ERR_TRUNCATE as a negative result (between processes), or,
        // where the library completes it quietly (Open MPI sending to self), a header whose payload exceeds the room,
        // which the caller refuses; nothing copied either way
        byte[] small = new byte[4];
        JniCalls.irecvHeaded(0, 5, Empi.COMM_WORLD, recvRequest, recvStaging, HEADER + small.length);
        r = JniCalls.sendHeaded(sent, true, 0, 16, sendStaging, 1, 0, 8, 0, 0, 5, Empi.COMM_WORLD, sendRequest,
                status, 0);
        while (r == 0) r = JniCalls.test(sendRequest, status);
        r = poll(recvRequest, recvStaging, HEADER + small.length, small, true, 0, 1, small.length, out);
        check(r < 0 ? Empi.errorClassOf(-r) == Empi.constant("MPI_ERR_TRUNCATE") : r == 1 && out[1] == 16,
                "truncation reported: " + r + " " + Arrays.toString(out));
        check(Arrays.equals(small, new byte[4]), "nothing copied on truncation");

        // the post and the first test in one call: a message already sent completes in the call that posts for it
        r = JniCalls.sendHeaded(sent, true, 1, 6, sendStaging, 3, 0, 11, 0, 0, 6, Empi.COMM_WORLD, sendRequest,
                status, 1);
        while (r == 0) r = JniCalls.test(sendRequest, status);
        byte[] fused = new byte[8];
        r = JniCalls.irecvTestHeaded(0, 6, Empi.COMM_WORLD, recvRequest, status, recvStaging, HEADER + fused.length,
                fused, true, 0, 1, fused.length, out);
        check(r >= 0, "irecvTestHeaded posts: " + r);
        if (r == 0) {
            r = poll(recvRequest, recvStaging, HEADER + fused.length, fused, true, 0, 1, fused.length, out);
        }
        check(r == 1 && out[1] == 6 && out[3] == 6, "the fused receive's header: " + Arrays.toString(out));
        check(Arrays.equals(Arrays.copyOfRange(fused, 0, 6), Arrays.copyOfRange(sent, 1, 7)) && fused[6] == 0,
                "the fused receive's bytes: " + Arrays.toString(fused));

        Empi.finalizeMpi();
        System.out.println("JniCallsSelfCheck OK");
    }

    private static long status;

    private static int poll(long request, long staging, int capacity, Object array, boolean bytes, long at,
                            int itemBytes, int items, int[] out) {
        int r;
        long giveUp = System.nanoTime() + 10_000_000_000L;
        do {
            r = JniCalls.testReceiveHeaded(request, status, staging, capacity, array, bytes, at, itemBytes, items, out);
        } while (r == 0 && System.nanoTime() < giveUp);
        return r;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("JniCallsSelfCheck FAILED: " + what);
            System.exit(1);
        }
    }
}
