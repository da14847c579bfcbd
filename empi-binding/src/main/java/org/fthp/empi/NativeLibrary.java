package org.fthp.empi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens the native MPI library with {@code RTLD_GLOBAL}.
 *
 * <p>Open MPI loads its components with dlopen and those resolve MPI symbols
 * from the global namespace; the JDK's own loading (RTLD_LOCAL) would leave
 * them unresolved, so the library is opened through libc's dlopen first.
 */
final class NativeLibrary {

    private static final int RTLD_NOW = 0x2;
    private static final int RTLD_GLOBAL = 0x100;

    private NativeLibrary() {}

    static SymbolLookup open(String path) {
        if (path == null || path.isBlank()) {
            throw new EmpiException("no native MPI library: set FTHP_EMPI_LIB or re-run the ABI probe");
        }
        if (!Files.exists(Path.of(path))) {
            throw new EmpiException("native MPI library " + path + " does not exist (FTHP_EMPI_LIB or the ABI probe named it)");
        }
        JvmSignals.keepFromUcx();
        Linker linker = Linker.nativeLinker();
        MethodHandle dlopen = linker.downcallHandle(
                linker.defaultLookup().find("dlopen").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        MethodHandle dlerror = linker.downcallHandle(
                linker.defaultLookup().find("dlerror").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_BYTE.withByteAlignment(1))));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment handle = (MemorySegment) dlopen.invokeExact(a.allocateFrom(path), RTLD_NOW | RTLD_GLOBAL);
            if (handle.equals(MemorySegment.NULL)) {
                MemorySegment err = (MemorySegment) dlerror.invokeExact();
                String why = err.equals(MemorySegment.NULL) ? "unknown" : err.reinterpret(4096).getString(0);
                throw new EmpiException("cannot load native MPI library " + path + ": " + why);
            }
        } catch (EmpiException e) {
            throw e;
        } catch (Throwable t) {
            throw new EmpiException("cannot load native MPI library " + path + ": " + t, t);
        }
        return SymbolLookup.libraryLookup(Path.of(path), Arena.global());
    }
}
