package org.fthp.replication.ops;

import org.fthp.empi.Empi;
import org.fthp.empi.EmpiException;
import org.fthp.empi.fast.JniCalls;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.output.RuntimeMessages;
import org.fthp.replication.staging.OpBlock;

/**
 * {@link InlineTransfer}'s native calls through JNI ({@link JniCalls}), and the switch of the JNI path it shares
 * with {@link ShallowTransfer}: a send writes its header, copies its payload from the program's array, posts and
 * tests in one call; a receive's test also reads the header and copies the payload into the array. A JNI call
 * costs the interpreter and C1 about what it costs C2, where the FFM downcalls and the MemorySegment header and
 * status accesses are only cheap once C2 has inlined some 450 methods, which is most of a program's first seconds.
 *
 * <p>On unless {@code -Dfthp.fastpath=ffm} (or FTHP_FASTPATH=ffm) or the library could not be built; it takes only
 * a dense datatype over a primitive array (the program's usual {@code byte[]}, {@code double[]}...), everything
 * else keeps to the FFM path.
 */
final class FastInline {

    /**
     * Whether the JNI path is on: unless {@code -Dfthp.fastpath=ffm} (or FTHP_FASTPATH=ffm in the ranks'
     * environment) or the library could not be built ({@link JniCalls#AVAILABLE} says why on stderr). Asked for
     * by name ({@code jni}), it says so once on stderr.
     */
    static final boolean ENABLED = enabled();

    /** Indexes of {@link JniCalls#testReceiveHeaded}'s out array. */
    static final int OUT_FLAGS = 0;
    static final int OUT_PAYLOAD = 1;
    static final int OUT_SOURCE = 2;
    static final int OUT_TAG = 3;
    static final int OUT_SEND_ID_LOW = 4;
    static final int OUT_SEND_ID_HIGH = 5;
    static final int OUT_INTS = 6;

    private FastInline() {}

    private static boolean enabled() {
        String asked = System.getProperty("fthp.fastpath", System.getenv("FTHP_FASTPATH"));
        if ("ffm".equals(asked) || !JniCalls.AVAILABLE) {
            return false;
        }
        if ("jni".equals(asked)) {
            RuntimeMessages.say("fthp: small blocking sends and receives through the JNI path (fthp.fastpath=jni)");
        }
        return true;
    }

    /**
     * The array {@code count} items of {@code type} from byte {@code startByte} of {@code buf} are copied straight
     * from or into, or null when that is not one memcpy inside a primitive array.
     */
    static Object array(UserBuffer buf, long startByte, int count, TypeLayout type) {
        Object array = buf.array();
        if (array == null || !type.isDense() || startByte < 0
                || startByte + (long) count * type.size() > buf.bytes()) {
            return null;
        }
        return array;
    }

    /** Header, payload, post and a first test in one call: whether the send completed at once. */
    static boolean send(Object array, long arrayByte, int payload, OpBlock block, int commId, int source,
                        long sendId, int flags, int dest, int tag, long comm) {
        int r = JniCalls.sendHeaded(array, array instanceof byte[], arrayByte, payload, block.stagingAddress(),
                commId, source, sendId, flags, dest, tag, comm, block.requestAddress(), block.statusAddress(), 1);
        return done("MPI_Isend/MPI_Test", r);
    }

    /** Posts the receive of up to {@code capacity} bytes into the block's staging. */
    static void postReceive(OpBlock block, int capacity, int source, int tag, long comm) {
        int r = JniCalls.irecvHeaded(source, tag, comm, block.requestAddress(), block.stagingAddress(), capacity);
        if (r < 0) {
            throw failure("MPI_Irecv", -r);
        }
    }

    /**
     * Posts the receive and tests it once, in one call: for a plain receive, whose payload may reach the program's
     * array at once. Whether it completed; then {@code out} holds its header and the payload is in the array.
     */
    static boolean postAndTestReceive(OpBlock block, int capacity, int source, int tag, long comm, Object array,
                                      long arrayByte, TypeLayout type, int count, int[] out) {
        int r = JniCalls.irecvTestHeaded(source, tag, comm, block.requestAddress(), block.statusAddress(),
                block.stagingAddress(), capacity, array, array instanceof byte[], arrayByte, (int) type.size(), count,
                out);
        return done("MPI_Irecv/MPI_Test", r);
    }

    /** Tests the posted receive once; when done, {@code out} holds its header and the payload is in the array. */
    static boolean testReceive(OpBlock block, int capacity, Object array, long arrayByte, TypeLayout type, int count,
                               int[] out) {
        int r = JniCalls.testReceiveHeaded(block.requestAddress(), block.statusAddress(), block.stagingAddress(),
                capacity, array, array instanceof byte[], arrayByte, (int) type.size(), count, out);
        return done("MPI_Test", r);
    }

    static long sendId(int[] out) {
        return (out[OUT_SEND_ID_LOW] & 0xffff_ffffL) | ((long) out[OUT_SEND_ID_HIGH] << 32);
    }

    private static boolean done(String function, int r) {
        if (r < 0) {
            throw failure(function, -r);
        }
        return r == 1;
    }

    static EmpiException failure(String function, int rc) {
        return new EmpiException(function + ": " + Empi.errorString(rc), rc, Empi.errorClassOf(rc));
    }
}
