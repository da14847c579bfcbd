package org.fthp.replication.collective;

import java.util.function.LongSupplier;

/**
 * How a reduction combines: always a {@link Combine} in Java (used where the
 * engine combines itself, and for every user operation), and for a
 * predefined operation the native datatype and operation handles (looked up
 * when the native call starts) that let the native library run it on
 * {@code baseItems} base elements per item.
 */
public record Reducer(Combine combine, LongSupplier typeHandle, LongSupplier opHandle, int baseItems) {

    /** A user operation: every contribution is gathered and combined in rank order in Java. */
    public static Reducer user(Combine combine) {
        return new Reducer(combine, null, null, 0);
    }

    /** A predefined operation the native library runs on packed base elements. */
    public static Reducer predefined(Combine combine, LongSupplier typeHandle, LongSupplier opHandle,
                                     int baseItems) {
        return new Reducer(combine, typeHandle, opHandle, baseItems);
    }

    /** Whether the native library runs the operation. */
    public boolean inLibrary() {
        return opHandle != null;
    }

    /** The native datatype of one base element. */
    long nativeType() {
        return typeHandle.getAsLong();
    }

    /** The native operation. */
    long nativeOp() {
        return opHandle.getAsLong();
    }

    /** Native elements in {@code count} items. */
    int elements(int count) {
        return count * baseItems;
    }
}
