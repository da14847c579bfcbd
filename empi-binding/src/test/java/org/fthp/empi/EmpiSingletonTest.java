package org.fthp.empi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

/**
 * Calls the real native library in a singleton MPI process (no mpirun): init,
 * a nonblocking allreduce progressed by MPI_Test, a native error turned into
 * an exception with the library's text, and finalize.
 */
class EmpiSingletonTest {

    @Test
    void nonblockingAllreduceAndNativeErrors() {
        Empi.load();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment provided = a.allocate(ValueLayout.JAVA_INT);
            Empi.initThread(MemorySegment.NULL, MemorySegment.NULL, 0, provided);
            Empi.commSetErrhandler(Empi.COMM_WORLD, Empi.ERRORS_RETURN);
            assertEquals(3, nullChecksInCompiledCode(), "the JVM still takes its own SIGSEGV after MPI_Init");
            MemorySegment n = a.allocate(ValueLayout.JAVA_INT);
            Empi.commSize(Empi.COMM_WORLD, n);
            assertEquals(1, n.get(ValueLayout.JAVA_INT, 0));

            MemorySegment in = a.allocateFrom(ValueLayout.JAVA_DOUBLE, 1.5, 2.5);
            MemorySegment out = a.allocate(ValueLayout.JAVA_DOUBLE, 2);
            MemorySegment req = Empi.allocateHandles(a, 1);
            MemorySegment flag = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment status = Empi.allocateStatuses(a, 1);
            Empi.iallreduce(in, out, 2, Empi.handle("MPI_DOUBLE"), Empi.handle("MPI_SUM"), Empi.COMM_WORLD, req);
            do {
                Empi.test(req, flag, status);
            } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
            assertEquals(2.5, out.getAtIndex(ValueLayout.JAVA_DOUBLE, 1));
            assertEquals(Empi.REQUEST_NULL, Empi.getHandle(req, 0));

            // rank 5 does not exist in a singleton: the native library says so, the JVM survives
            EmpiException e = assertThrows(EmpiException.class,
                    () -> Empi.isend(in, 1, Empi.BYTE, 5, 0, Empi.COMM_WORLD, req));
            assertEquals(Empi.constant("MPI_ERR_RANK"), e.errorClass());
            assertTrue(e.getMessage().contains("MPI_Isend"), e.getMessage());

            // a Java reduction function called by the native library through an upcall
            try (UserOp absMax = new UserOp((inSeg, inoutSeg, count, type) -> {
                MemorySegment x = inSeg.reinterpret(8L * count);
                MemorySegment y = inoutSeg.reinterpret(8L * count);
                for (int i = 0; i < count; i++) {
                    double v = Math.max(Math.abs(x.getAtIndex(ValueLayout.JAVA_DOUBLE, i)),
                            Math.abs(y.getAtIndex(ValueLayout.JAVA_DOUBLE, i)));
                    y.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v);
                }
            }, true)) {
                MemorySegment a1 = a.allocateFrom(ValueLayout.JAVA_DOUBLE, -7.0, 2.0);
                MemorySegment a2 = a.allocateFrom(ValueLayout.JAVA_DOUBLE, 3.0, -9.0);
                Empi.reduceLocal(a1, a2, 2, Empi.handle("MPI_DOUBLE"), absMax.handle());
                assertEquals(7.0, a2.getAtIndex(ValueLayout.JAVA_DOUBLE, 0));
                assertEquals(9.0, a2.getAtIndex(ValueLayout.JAVA_DOUBLE, 1));
            }

            // a predefined operation by the critical downcall (a short vector) and the ordinary one (a long one)
            MemorySegment p1 = a.allocateFrom(ValueLayout.JAVA_DOUBLE, 1.5, -2.0);
            MemorySegment p2 = a.allocateFrom(ValueLayout.JAVA_DOUBLE, 0.25, 8.0);
            Empi.reduceLocalPredefined(p1, p2, 2, Empi.handle("MPI_DOUBLE"), Empi.handle("MPI_SUM"));
            assertEquals(1.75, p2.getAtIndex(ValueLayout.JAVA_DOUBLE, 0));
            assertEquals(6.0, p2.getAtIndex(ValueLayout.JAVA_DOUBLE, 1));
            int longCount = 20_000;   // 160 KB: above the critical bound
            MemorySegment l1 = a.allocate(ValueLayout.JAVA_DOUBLE, longCount);
            MemorySegment l2 = a.allocate(ValueLayout.JAVA_DOUBLE, longCount);
            for (int i = 0; i < longCount; i++) {
                l1.setAtIndex(ValueLayout.JAVA_DOUBLE, i, i);
                l2.setAtIndex(ValueLayout.JAVA_DOUBLE, i, longCount - 2 * i);
            }
            Empi.reduceLocalPredefined(l1, l2, longCount, Empi.handle("MPI_DOUBLE"), Empi.handle("MPI_MAX"));
            for (int i = 0; i < longCount; i++) {
                assertEquals(Math.max(i, longCount - 2 * i), l2.getAtIndex(ValueLayout.JAVA_DOUBLE, i), "item " + i);
            }

            // the tag bound exists only after init; each library's, as measured (docs/notes/mpich.md)
            int tagUb = Empi.tagUpperBound();
            assertTrue(tagUb >= 32767, "the standard's minimum, got " + tagUb);
            switch (Empi.abi().family()) {
                case "openmpi" -> assertEquals(Integer.MAX_VALUE, tagUb);
                case "mpich" -> assertEquals((1 << 28) - 1, tagUb);
                default -> { }
            }
            // sending at the bound is accepted, one above it refused by the library itself
            // two buffers: MPICH aborts the process (a yaksa assertion) on a self-message whose buffers overlap
            MemorySegment one = a.allocateFrom(ValueLayout.JAVA_INT, 42);
            MemorySegment got = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment sreq = Empi.allocateHandles(a, 1);
            MemorySegment rreq = Empi.allocateHandles(a, 1);
            Empi.irecv(got, 4, Empi.BYTE, 0, tagUb, Empi.COMM_WORLD, rreq);
            Empi.isend(one, 4, Empi.BYTE, 0, tagUb, Empi.COMM_WORLD, sreq);
            for (MemorySegment r : new MemorySegment[] {sreq, rreq}) {
                do {
                    Empi.test(r, flag, status);
                } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
            }
            assertEquals(42, got.get(ValueLayout.JAVA_INT, 0));
            if (tagUb < Integer.MAX_VALUE) {
                EmpiException above = assertThrows(EmpiException.class,
                        () -> Empi.isend(one, 4, Empi.BYTE, 0, tagUb + 1, Empi.COMM_WORLD, sreq));
                assertEquals(Empi.constant("MPI_ERR_TAG"), above.errorClass());
            }
            assertEquals(!"mpich".equals(Empi.abi().family()), Empi.finalizeSurvivesDeadPeers());

            testallReportsOnlyWhenNothingIsLeftActive(a, flag);

            double t0 = Empi.wtime();
            assertTrue(Empi.wtime() >= t0 && Empi.wtick() > 0);
            // MPICH's bounded Finalize runs on another thread; with no dead peer it returns well within the bound
            assertTrue(Empi.finalizeMpiWithin(60_000), "the native Finalize returned");
        }
    }

    private static int length(int[] array) {
        return array.length;
    }

    /**
     * A null reaching compiled code that checks for it implicitly (a SIGSEGV the JVM turns into a
     * NullPointerException), three times: UCX's own SIGSEGV handler, unless kept away (JvmSignals), ends the process
     * at the first.
     */
    private static int nullChecksInCompiledCode() {
        int[][] arrays = {new int[3], null};
        int caught = 0;
        for (int i = 0; i < 300_000; i++) {
            try {
                length(arrays[i % 100_000 == 99_999 ? 1 : 0]);
            } catch (NullPointerException e) {
                caught++;
            }
        }
        return caught;
    }

    /**
     * Two receives completed together, the first truncated while the second's message has not been sent: no failure
     * is reported while the second is active (MPICH's own MPI_Testall would report it at once and free the first,
     * src/test/c/mpich/testall.c), then both requests done together, with MPI_ERR_IN_STATUS and the truncation in
     * the first status.
     */
    private static void testallReportsOnlyWhenNothingIsLeftActive(Arena a, MemorySegment flag) {
        MemorySegment requests = Empi.allocateHandles(a, 2);
        MemorySegment statuses = Empi.allocateStatuses(a, 2);
        MemorySegment small = a.allocate(8);
        MemorySegment later = a.allocate(ValueLayout.JAVA_INT);
        MemorySegment big = a.allocateFrom(ValueLayout.JAVA_INT, 1, 2, 3, 4);
        MemorySegment value = a.allocateFrom(ValueLayout.JAVA_INT, 42);
        MemorySegment sreq = Empi.allocateHandles(a, 1);
        MemorySegment status = Empi.allocateStatuses(a, 1);
        Empi.irecv(small, 8, Empi.BYTE, 0, 77, Empi.COMM_WORLD, requests.asSlice(0, Empi.HANDLE_BYTES));
        Empi.irecv(later, 4, Empi.BYTE, 0, 78, Empi.COMM_WORLD,
                requests.asSlice(Empi.HANDLE_BYTES, Empi.HANDLE_BYTES));
        Empi.isend(big, 16, Empi.BYTE, 0, 77, Empi.COMM_WORLD, sreq);
        do {
            Empi.test(sreq, flag, status);
        } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
        for (int i = 0; i < 100; i++) {
            Empi.testall(2, requests, flag, statuses);
            assertEquals(0, flag.get(ValueLayout.JAVA_INT, 0), "the second receive has no message yet");
        }
        assertTrue(Empi.getHandle(requests, 0) != Empi.REQUEST_NULL, "the truncated one is kept until the end");
        Empi.isend(value, 4, Empi.BYTE, 0, 78, Empi.COMM_WORLD, sreq);
        EmpiException reported = null;
        try {
            do {
                Empi.testall(2, requests, flag, statuses);
            } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
        } catch (EmpiException e) {
            reported = e;
        }
        assertEquals(Empi.REQUEST_NULL, Empi.getHandle(requests, 0));
        assertEquals(Empi.REQUEST_NULL, Empi.getHandle(requests, 1));
        if (!"openmpi".equals(Empi.abi().family())) {
            // Open MPI 4.1's self path truncates without an error (measured in C: MPI_SUCCESS, status MPI_SUCCESS)
            assertTrue(reported != null, "the truncation is reported");
            assertEquals(Empi.constant("MPI_ERR_IN_STATUS"), reported.errorClass());
            assertEquals(Empi.constant("MPI_ERR_TRUNCATE"), Empi.errorClassOf(Empi.statusError(statuses, 0)));
        }
        assertEquals(42, later.get(ValueLayout.JAVA_INT, 0));
        do {
            Empi.test(sreq, flag, status);
        } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
    }
}
