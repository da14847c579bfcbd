package org.fthp.empi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Builds downcall handles from compact signatures, so that the one thing that
 * differs between MPI libraries, the width of a handle, is decided here and
 * nowhere else: Java callers always pass handles as {@code long}.
 *
 * <p>Signature letters: {@code i} int, {@code h} MPI handle, {@code p} pointer,
 * {@code a} MPI_Aint / MPI_Count, {@code d} double, {@code v} void (return only).
 * The first letter is the return type, the others the C parameters in order:
 * {@code "ipihiihp"} is {@code int MPI_Isend(void *buf, int count, MPI_Datatype
 * datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)}.
 *
 * <p>A handle built here takes its arguments by position only; the names of
 * the C binding are given to them by the {@link Empi} wrapper of each call.
 */
final class Downcalls {

    private final Linker linker = Linker.nativeLinker();
    private final SymbolLookup lookup;
    private final ValueLayout handleLayout;

    Downcalls(SymbolLookup lookup, int handleBytes) {
        this.lookup = lookup;
        this.handleLayout = handleBytes == 8 ? ValueLayout.JAVA_LONG : ValueLayout.JAVA_INT;
    }

    /**
     * A handle for a call that may block, call back into Java, or run long.
     *
     * @param cName the C function, e.g. {@code "MPI_Isend"}
     * @param signature its return and parameter types in the letters above
     */
    MethodHandle full(String cName, String signature) {
        return make(cName, signature, false);
    }

    /**
     * A handle for a short call that never calls back into Java: skips the
     * thread-state transition, which is a large share of a small message's cost.
     * Parameters as for {@link #full}.
     */
    MethodHandle critical(String cName, String signature) {
        return make(cName, signature, true);
    }

    private MethodHandle make(String cName, String signature, boolean critical) {
        var symbol = lookup.find(cName).orElseThrow(
                () -> new EmpiException("native MPI library has no symbol " + cName));
        MemoryLayout ret = layout(signature.charAt(0));
        MemoryLayout[] args = new MemoryLayout[signature.length() - 1];
        for (int i = 1; i < signature.length(); i++) {
            args[i - 1] = layout(signature.charAt(i));
        }
        FunctionDescriptor descriptor = ret == null
                ? FunctionDescriptor.ofVoid(args)
                : FunctionDescriptor.of(ret, args);
        MethodHandle downcall = critical
                ? linker.downcallHandle(symbol, descriptor, Linker.Option.critical(false))
                : linker.downcallHandle(symbol, descriptor);
        if (handleLayout == ValueLayout.JAVA_INT && signature.indexOf('h') >= 0) {
            // int-wide handles: let callers pass long anyway, narrowed here
            MethodType longHandles = downcall.type();
            for (int i = 1; i < signature.length(); i++) {
                if (signature.charAt(i) == 'h') {
                    longHandles = longHandles.changeParameterType(i - 1, long.class);
                }
            }
            downcall = MethodHandles.explicitCastArguments(downcall, longHandles);
        }
        return downcall;
    }

    private MemoryLayout layout(char letter) {
        return switch (letter) {
            case 'i' -> ValueLayout.JAVA_INT;
            case 'h' -> handleLayout;
            case 'p' -> ValueLayout.ADDRESS;
            case 'a' -> ValueLayout.JAVA_LONG;
            case 'd' -> ValueLayout.JAVA_DOUBLE;
            case 'v' -> null;
            default -> throw new IllegalArgumentException("bad signature letter " + letter);
        };
    }
}
