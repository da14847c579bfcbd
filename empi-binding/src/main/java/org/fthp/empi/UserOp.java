package org.fthp.empi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A native reduction operation ({@code MPI_Op_create}) whose function is Java,
 * reached through an FFM upcall stub.
 *
 * <p>The native library may call it from inside any call that progresses a
 * reduction. Downcalls marked critical must not call back into Java, so an
 * operation made here may only be used with calls that are not critical
 * ({@code MPI_Reduce_local} and the blocking collectives); the facade runs user
 * operations in Java instead and never needs this.
 */
public final class UserOp implements AutoCloseable {

    /** {@code inout[i] = in[i] op inout[i]} for {@code count} items of {@code datatype}. */
    @FunctionalInterface
    public interface Function {
        void apply(MemorySegment in, MemorySegment inout, int count, long datatype);
    }

    private static final MethodHandle DISPATCH;

    static {
        try {
            DISPATCH = MethodHandles.lookup().findVirtual(UserOp.class, "dispatch",
                    MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class,
                            MemorySegment.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Function function;
    private final Arena arena = Arena.ofShared();
    private final long handle;

    public UserOp(Function function, boolean commute) {
        this.function = function;
        FunctionDescriptor fd = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        MemorySegment stub = Linker.nativeLinker().upcallStub(DISPATCH.bindTo(this), fd, arena);
        MemorySegment out = Empi.allocateHandles(arena, 1);
        Empi.opCreate(stub, commute ? 1 : 0, out);
        this.handle = Empi.getHandle(out, 0);
    }

    /** The native MPI_Op. */
    public long handle() {
        return handle;
    }

    private void dispatch(MemorySegment in, MemorySegment inout, MemorySegment len, MemorySegment type) {
        int count = len.reinterpret(4).get(ValueLayout.JAVA_INT, 0);
        long datatype = Empi.getHandle(type.reinterpret(Empi.HANDLE_BYTES), 0);
        // an exception must not unwind into native code: the JVM would abort
        try {
            function.apply(in, inout, count, datatype);
        } catch (Throwable t) {
            t.printStackTrace();
            Runtime.getRuntime().halt(70);
        }
    }

    /** Frees the native operation and then its upcall stub. */
    @Override
    public void close() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = Empi.allocateHandles(a, 1);
            Empi.setHandle(h, 0, handle);
            Empi.opFree(h);
        } finally {
            arena.close();
        }
    }
}
