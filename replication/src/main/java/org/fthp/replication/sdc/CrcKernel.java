package org.fthp.replication.sdc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import org.fthp.empi.abi.CachedBuild;
import org.fthp.replication.output.RuntimeMessages;

/**
 * The fused copy+CRC32C kernel ({@code fthp_crc32c.c}): one pass over a payload copies it into staging and folds
 * it into the CRC, where the JDK's intrinsic would take a second pass over the copied bytes. Its values are those
 * of {@code java.util.zip.CRC32C} bit for bit (the register form, see the source), so a copy hashing here and its
 * twin hashing in Java agree.
 *
 * <p>Compiled with the system's C compiler ({@code CC}, else {@code cc}, else {@code gcc}; no MPI needed) on first
 * use and cached ({@link CachedBuild}, keyed by the source and the compiler), called by critical downcalls: no
 * allocation, and heap arrays are read in place (no collection can start during the call). A downcall covers at
 * most {@link #PIECE} bytes, so a safepoint never waits on more than one piece. {@link #get} is null, after one
 * line on stderr, when there is no compiler or the CPU lacks the instructions; {@code FTHP_CRC_KERNEL=java}
 * chooses the Java path without a word.
 */
public final class CrcKernel {

    static final String SOURCE = "fthp_crc32c.c";
    /** {@code java}: hash with the JDK's CRC32C even where the kernel runs. */
    public static final String ENV = "FTHP_CRC_KERNEL";
    /** The most bytes one downcall handles. */
    static final long PIECE = 4L << 20;

    private static final CrcKernel INSTANCE = load();

    /** {@code uint32_t fthp_crc32c_copy(uint32_t crc, uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off, int64_t n)} */
    private final MethodHandle copy;
    /** {@code uint32_t fthp_crc32c(uint32_t crc, const uint8_t *src, int64_t src_off, int64_t n)} */
    private final MethodHandle fold;

    private CrcKernel(MethodHandle copy, MethodHandle fold) {
        this.copy = copy;
        this.fold = fold;
    }

    /** The kernel, or null: hash in Java. */
    public static CrcKernel get() {
        return INSTANCE;
    }

    /**
     * Copies {@code len} bytes from {@code src} at {@code srcOff} to {@code dst} at {@code dstOff} (not overlapping)
     * and returns register {@code crc} with them folded in; bounds are checked as {@code MemorySegment.copy} does.
     */
    int copyAndFold(int crc, MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long len) {
        Objects.checkFromIndexSize(srcOff, len, src.byteSize());
        Objects.checkFromIndexSize(dstOff, len, dst.byteSize());
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination " + dst);
        }
        try {
            for (long done = 0; done < len; done += PIECE) {
                crc = (int) copy.invokeExact(crc, dst, dstOff + done, src, srcOff + done, Math.min(PIECE, len - done));
            }
        } catch (Throwable t) {
            throw new IllegalStateException("fused copy+CRC32C of " + len + " bytes", t);
        }
        return crc;
    }

    /** Register {@code crc} with {@code len} bytes of {@code src} from {@code off} folded in. */
    int fold(int crc, MemorySegment src, long off, long len) {
        Objects.checkFromIndexSize(off, len, src.byteSize());
        try {
            for (long done = 0; done < len; done += PIECE) {
                crc = (int) fold.invokeExact(crc, src, off + done, Math.min(PIECE, len - done));
            }
        } catch (Throwable t) {
            throw new IllegalStateException("CRC32C of " + len + " bytes", t);
        }
        return crc;
    }

    private static CrcKernel load() {
        if ("java".equals(System.getenv(ENV))) {
            return null;
        }
        Path library;
        try {
            library = build();
        } catch (IOException | RuntimeException e) {
            RuntimeMessages.say("fthp: no fused copy+CRC32C kernel (" + firstLine(e) + "); hashing in Java");
            return null;
        }
        Linker linker = Linker.nativeLinker();
        SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
        Linker.Option critical = Linker.Option.critical(true);
        MethodHandle supported = linker.downcallHandle(lookup.find("fthp_crc32c_supported").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT));
        try {
            if ((int) supported.invokeExact() == 0) {
                RuntimeMessages.say("fthp: this CPU lacks the fused copy+CRC32C kernel's instructions (AVX-512,"
                        + " VPCLMULQDQ, SSE4.2); hashing in Java");
                return null;
            }
        } catch (Throwable t) {
            RuntimeMessages.say("fthp: fused copy+CRC32C kernel unusable (" + t + "); hashing in Java");
            return null;
        }
        MethodHandle copy = linker.downcallHandle(lookup.find("fthp_crc32c_copy").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                critical);
        MethodHandle fold = linker.downcallHandle(lookup.find("fthp_crc32c").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), critical);
        return new CrcKernel(copy, fold);
    }

    private static Path build() throws IOException {
        Path cc = compiler();
        byte[] source = CachedBuild.resource(CrcKernel.class, SOURCE);
        return CachedBuild.once("crc32c", CachedBuild.key(source, cc, "-O2"), "so", work -> {
            Path c = work.resolve(SOURCE);
            Files.write(c, source);
            Path so = work.resolve("libfthp_crc32c.so");
            CachedBuild.run(List.of(cc.toString(), "-O2", "-shared", "-fPIC", "-o", so.toString(), c.toString()),
                    work, null, "cannot build " + SOURCE);
            return so;
        });
    }

    /** {@code CC} when set (a path or a name on the PATH), else {@code cc} or {@code gcc} on the PATH. */
    private static Path compiler() throws IOException {
        String cc = System.getenv("CC");
        List<String> names = cc != null && !cc.isBlank() ? List.of(cc.strip()) : List.of("cc", "gcc");
        for (String name : names) {
            if (name.contains("/")) {
                Path p = Path.of(name);
                if (Files.isExecutable(p)) {
                    return p.toAbsolutePath();
                }
                continue;
            }
            String path = System.getenv("PATH");
            for (String dir : path == null ? new String[0] : path.split(":")) {
                Path p = dir.isEmpty() ? null : Path.of(dir, name);
                if (p != null && Files.isExecutable(p)) {
                    return p.toAbsolutePath();
                }
            }
        }
        throw new IOException("no C compiler: " + String.join(" or ", names) + " not found");
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
