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
 * The first letter is the return type.
 */
final class Downcalls {

    private final Linker linker = Linker.nativeLinker();
    private final SymbolLookup lookup;
    private final ValueLayout handleLayout;

    Downcalls(SymbolLookup lookup, int handleBytes) {
        this.lookup = lookup;
        this.handleLayout = handleBytes == 8 ? ValueLayout.JAVA_LONG : ValueLayout.JAVA_INT;
    }

    /** A handle for a call that may block, call back into Java, or run long. */
    MethodHandle full(String name, String sig) {
        return make(name, sig, false);
    }

    /**
     * A handle for a short call that never calls back into Java: skips the
     * thread-state transition, which is a large share of a small message's cost.
     */
    MethodHandle critical(String name, String sig) {
        return make(name, sig, true);
    }

    private MethodHandle make(String name, String sig, boolean critical) {
        var symbol = lookup.find(name).orElseThrow(
                () -> new EmpiException("native MPI library has no symbol " + name));
        MemoryLayout ret = layout(sig.charAt(0));
        MemoryLayout[] args = new MemoryLayout[sig.length() - 1];
        for (int i = 1; i < sig.length(); i++) {
            args[i - 1] = layout(sig.charAt(i));
        }
        FunctionDescriptor fd = ret == null ? FunctionDescriptor.ofVoid(args) : FunctionDescriptor.of(ret, args);
        MethodHandle mh = critical
                ? linker.downcallHandle(symbol, fd, Linker.Option.critical(false))
                : linker.downcallHandle(symbol, fd);
        if (handleLayout == ValueLayout.JAVA_INT && sig.indexOf('h') >= 0) {
            MethodType t = mh.type();
            for (int i = 1; i < sig.length(); i++) {
                if (sig.charAt(i) == 'h') {
                    t = t.changeParameterType(i - 1, long.class);
                }
            }
            mh = MethodHandles.explicitCastArguments(mh, t);
        }
        return mh;
    }

    private MemoryLayout layout(char c) {
        return switch (c) {
            case 'i' -> ValueLayout.JAVA_INT;
            case 'h' -> handleLayout;
            case 'p' -> ValueLayout.ADDRESS;
            case 'a' -> ValueLayout.JAVA_LONG;
            case 'd' -> ValueLayout.JAVA_DOUBLE;
            case 'v' -> null;
            default -> throw new IllegalArgumentException("bad signature letter " + c);
        };
    }
}
