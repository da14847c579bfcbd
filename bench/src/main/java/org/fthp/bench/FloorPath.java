package org.fthp.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.empi.fast.FatCalls;
import org.fthp.empi.fast.JniCalls;

/**
 * How {@link ColdFloor} moves one {@code byte[]} message: the native calls of a send and of a receive, each
 * completed before returning by polling (never a blocking native call).
 */
abstract class FloorPath {

    static final int TAG = 1;

    /** Sends the first {@code n} bytes of {@code array} to {@code peer}. */
    abstract void send(byte[] array, int n, int peer);

    /** Receives {@code n} bytes from {@code peer} into {@code array}. */
    abstract void recv(byte[] array, int n, int peer);

    /** The path of that name with a native buffer of {@code capacity} bytes, or null for an unknown name. */
    static FloorPath of(String name, Arena arena, int capacity) {
        return switch (name) {
            case "ffm" -> new Ffm(arena, capacity);
            case "fat" -> FatCalls.AVAILABLE ? new Fat(arena, capacity) : null;
            case "jni" -> JniCalls.AVAILABLE ? new Jni(arena, capacity) : null;
            default -> null;
        };
    }

    /** EMPI's FFM downcalls as FTHP-J calls them: MPI_Isend/MPI_Irecv, then MPI_Test with flag and status cells. */
    static final class Ffm extends FloorPath {
        private final MemorySegment staging;
        private final MemorySegment request;
        private final MemorySegment flag;
        private final MemorySegment status;

        Ffm(Arena arena, int capacity) {
            staging = arena.allocate(capacity, 64);
            request = Empi.allocateHandles(arena, 1);
            flag = arena.allocate(ValueLayout.JAVA_INT);
            status = Empi.allocateStatuses(arena, 1);
        }

        @Override
        void send(byte[] array, int n, int peer) {
            MemorySegment.copy(array, 0, staging, ValueLayout.JAVA_BYTE, 0, n);
            Empi.isend(staging, n, Empi.BYTE, peer, TAG, Empi.COMM_WORLD, request);
            finish();
        }

        @Override
        void recv(byte[] array, int n, int peer) {
            Empi.irecv(staging, n, Empi.BYTE, peer, TAG, Empi.COMM_WORLD, request);
            finish();
            MemorySegment.copy(staging, ValueLayout.JAVA_BYTE, 0, array, 0, n);
        }

        private void finish() {
            do {
                Empi.test(request, flag, status);
            } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
        }
    }

    /** Posts and tests in one FFM downcall, the flag as the result (the prototype's fat calls over FFM). */
    static final class Fat extends FloorPath {
        private final MemorySegment staging;
        private final MemorySegment request;
        private final MemorySegment status;

        Fat(Arena arena, int capacity) {
            staging = arena.allocate(capacity, 64);
            request = Empi.allocateHandles(arena, 1);
            status = Empi.allocateStatuses(arena, 1);
        }

        @Override
        void send(byte[] array, int n, int peer) {
            MemorySegment.copy(array, 0, staging, ValueLayout.JAVA_BYTE, 0, n);
            int done = FatCalls.isendTest(staging, n, Empi.BYTE, peer, TAG, Empi.COMM_WORLD, request, status);
            while (done == 0) {
                done = FatCalls.test(request, status);
            }
            check(done);
        }

        @Override
        void recv(byte[] array, int n, int peer) {
            int done = FatCalls.irecvTest(staging, n, Empi.BYTE, peer, TAG, Empi.COMM_WORLD, request, status);
            while (done == 0) {
                done = FatCalls.test(request, status);
            }
            check(done);
            MemorySegment.copy(staging, ValueLayout.JAVA_BYTE, 0, array, 0, n);
        }
    }

    /** The prototype's JNI calls: the copy into staging, the post and a first test in one call. */
    static final class Jni extends FloorPath {
        private final long staging;
        private final long request;
        private final long status;

        Jni(Arena arena, int capacity) {
            staging = arena.allocate(capacity, 64).address();
            request = Empi.allocateHandles(arena, 1).address();
            status = Empi.allocateStatuses(arena, 1).address();
        }

        @Override
        void send(byte[] array, int n, int peer) {
            int done = JniCalls.isendArrayTest(array, 0, n, staging, Empi.BYTE, peer, TAG, Empi.COMM_WORLD,
                    request, status);
            while (done == 0) {
                done = JniCalls.test(request, status);
            }
            check(done);
        }

        @Override
        void recv(byte[] array, int n, int peer) {
            int done = JniCalls.irecvTest(staging, n, Empi.BYTE, peer, TAG, Empi.COMM_WORLD, request, status);
            if (done == 1) {
                JniCalls.copyOut(staging, array, 0, n);
            }
            while (done == 0) {
                done = JniCalls.testCopyOut(request, status, staging, array, 0, n);
            }
            check(done);
        }
    }

    static void check(int result) {
        if (result < 0) {
            throw new EmpiException("MPI error " + -result);
        }
    }
}
