package org.fthp.replication.sdc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Reference;
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
 * use and cached ({@link CachedBuild}, keyed by the sources and the compiler), and called by JNI ({@link CrcJni},
 * {@code fthp_crc32c_jni.c}, built beside it with the running JDK's {@code jni.h}): a rank makes most of its
 * sends (a thousand or so in a short run) while the digest's path is still interpreted or in C1's profiling
 * code, where a JNI call costs what it costs C2 and an FFM downcall's method handles cost microseconds; and JNI
 * gives the JIT nothing more to compile, where the downcall's handles and segment accessors were hundreds of
 * methods more in each JVM. Where the JDK has no {@code jni.h}, or {@code FTHP_CRC_KERNEL=ffm}, the same
 * kernel is called by critical FFM downcalls instead. Either way no allocation, and heap arrays are read in place
 * (pinned, no collection can start during the call). A call covers at most {@link #PIECE} bytes, so a safepoint
 * never waits on more than one piece. {@link #get} is null, after one line on stderr, when there is no compiler
 * or the CPU lacks the instructions; {@code FTHP_CRC_KERNEL=java} chooses the Java path without a word.
 */
public final class CrcKernel {

    static final String SOURCE = "fthp_crc32c.c";
    static final String JNI_SOURCE = "fthp_crc32c_jni.c";
    /**
     * {@code java}: hash with the JDK's CRC32C even where the kernel runs; {@code ffm}: call the kernel by FFM
     * downcalls, not by JNI.
     */
    public static final String ENV = "FTHP_CRC_KERNEL";
    /** The most bytes one downcall handles. */
    static final long PIECE = 4L << 20;

    private static final CrcKernel INSTANCE = load();

    /**
     * {@code uint32_t fthp_crc32c_copy(uint32_t crc, uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off, int64_t n)};
     * null with {@link #fold}: the kernel is called by JNI ({@link CrcJni}).
     */
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
     * The same kernel called by FFM downcalls whatever {@link #get} calls it by, or null where it does not run: lets
     * a test hold both entries against each other.
     */
    static CrcKernel byDowncalls() {
        try {
            return byDowncalls(build(compiler(), CachedBuild.resource(CrcKernel.class, SOURCE)));
        } catch (IOException e) {
            return null;
        }
    }

    /** Whether calls go by JNI (else by FFM downcalls). */
    boolean jni() {
        return copy == null;
    }

    /**
     * Copies {@code len} bytes from {@code src} at {@code srcOff} to {@code dst} at {@code dstOff} (not overlapping)
     * and returns register {@code crc} with them folded in; bounds are checked as {@code MemorySegment.copy} does.
     */
    int copyAndFold(int crc, MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long len) {
        checkCopy(src, srcOff, dst, dstOff, len);
        if (copy == null) {
            return copyAndFoldByJni(crc, src, srcOff, dst, dstOff, len);
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

    /**
     * {@link #copyAndFold} after folding a send's envelope ({@code a}, {@code b}, {@code c}, four zero bytes,
     * {@code envelopeLen}) into {@code crc}: by JNI in the call that copies the first piece.
     */
    int copyAndFoldSent(int crc, int a, int b, int c, long envelopeLen, MemorySegment src, long srcOff,
                        MemorySegment dst, long dstOff, long len) {
        checkCopy(src, srcOff, dst, dstOff, len);
        Object array = src.isNative() ? null : src.heapBase().orElse(null);
        if (copy != null || len == 0 || !dst.isNative() || (array == null && !src.isNative())) {
            return copyAndFold(CrcWords.envelope(crc, a, b, c, envelopeLen), src, srcOff, dst, dstOff, len);
        }
        long to = dst.address() + dstOff;
        long from = src.address() + srcOff;
        long n = Math.min(PIECE, len);
        crc = array != null ? CrcJni.copySentFromArray(crc, a, b, c, envelopeLen, array, from, to, n)
                : CrcJni.copySentFromAddress(crc, a, b, c, envelopeLen, from, to, n);
        if (n < len) {
            crc = copyAndFoldByJni(crc, src, srcOff + n, dst, dstOff + n, len - n);
        }
        Reference.reachabilityFence(src);
        Reference.reachabilityFence(dst);
        return crc;
    }

    /** The bounds and the destination's writability, checked as {@code MemorySegment.copy} does. */
    private static void checkCopy(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long len) {
        Objects.checkFromIndexSize(srcOff, len, src.byteSize());
        Objects.checkFromIndexSize(dstOff, len, dst.byteSize());
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination " + dst);
        }
    }

    /** Register {@code crc} with {@code len} bytes of {@code src} from {@code off} folded in. */
    int fold(int crc, MemorySegment src, long off, long len) {
        Objects.checkFromIndexSize(off, len, src.byteSize());
        if (fold == null) {
            return foldByJni(crc, src, off, len);
        }
        try {
            for (long done = 0; done < len; done += PIECE) {
                crc = (int) fold.invokeExact(crc, src, off + done, Math.min(PIECE, len - done));
            }
        } catch (Throwable t) {
            throw new IllegalStateException("CRC32C of " + len + " bytes", t);
        }
        return crc;
    }

    /**
     * {@link #copyAndFold} by JNI, bounds checked: into native memory from native memory or a heap array in one
     * pass; a heap destination (none on the send path: staging is native) is copied, then folded.
     */
    private static int copyAndFoldByJni(int crc, MemorySegment src, long srcOff, MemorySegment dst, long dstOff,
                                        long len) {
        Object array = src.isNative() ? null : src.heapBase().orElse(null);
        if (!dst.isNative() || (array == null && !src.isNative())) {
            MemorySegment.copy(src, srcOff, dst, dstOff, len);
            return foldByJni(crc, dst, dstOff, len);
        }
        long to = dst.address() + dstOff;
        // a heap segment's address is its offset in the array
        long from = src.address() + srcOff;
        for (long done = 0; done < len; done += PIECE) {
            long n = Math.min(PIECE, len - done);
            crc = array != null ? CrcJni.copyFromArray(crc, array, from + done, to + done, n)
                    : CrcJni.copyFromAddress(crc, from + done, to + done, n);
        }
        // the memory behind an address must outlive the calls (a direct buffer's is freed when it is collected)
        Reference.reachabilityFence(src);
        Reference.reachabilityFence(dst);
        return crc;
    }

    /** {@link #fold} by JNI, bounds checked. */
    private static int foldByJni(int crc, MemorySegment src, long off, long len) {
        Object array = src.isNative() ? null : src.heapBase().orElse(null);
        if (array == null && !src.isNative()) {
            // a read-only heap segment shows no array: fold a copy of it
            MemorySegment copy = Arena.ofAuto().allocate(Math.max(1, len));
            MemorySegment.copy(src, off, copy, 0, len);
            return foldByJni(crc, copy, 0, len);
        }
        long from = src.address() + off;
        for (long done = 0; done < len; done += PIECE) {
            long n = Math.min(PIECE, len - done);
            crc = array != null ? CrcJni.foldArray(crc, array, from + done, n)
                    : CrcJni.foldAddress(crc, from + done, n);
        }
        Reference.reachabilityFence(src);
        return crc;
    }

    private static CrcKernel load() {
        String choice = System.getenv(ENV);
        if ("java".equals(choice)) {
            return null;
        }
        Path cc;
        byte[] kernel;
        try {
            cc = compiler();
            kernel = CachedBuild.resource(CrcKernel.class, SOURCE);
        } catch (IOException | RuntimeException e) {
            RuntimeMessages.say("fthp: no fused copy+CRC32C kernel (" + firstLine(e) + "); hashing in Java");
            return null;
        }
        if (!"ffm".equals(choice)) {
            try {
                System.load(buildWithJni(cc, kernel).toString());
                if (CrcJni.supported() == 0) {
                    RuntimeMessages.say(UNSUPPORTED);
                    return null;
                }
                return new CrcKernel(null, null);
            } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
                // no jni.h in this JDK, or a library that will not load: the same kernel by FFM
            }
        }
        try {
            return byDowncalls(build(cc, kernel));
        } catch (IOException | RuntimeException e) {
            RuntimeMessages.say("fthp: no fused copy+CRC32C kernel (" + firstLine(e) + "); hashing in Java");
            return null;
        }
    }

    private static final String UNSUPPORTED = "fthp: this CPU lacks the fused copy+CRC32C kernel's instructions"
            + " (AVX-512, VPCLMULQDQ, SSE4.2); hashing in Java";

    /** The kernel in {@code library}, called by critical downcalls; null when the CPU cannot run it. */
    private static CrcKernel byDowncalls(Path library) {
        Linker linker = Linker.nativeLinker();
        SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
        Linker.Option critical = Linker.Option.critical(true);
        MethodHandle supported = linker.downcallHandle(lookup.find("fthp_crc32c_supported").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT));
        try {
            if ((int) supported.invokeExact() == 0) {
                RuntimeMessages.say(UNSUPPORTED);
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

    /** The kernel alone, for downcalls. */
    private static Path build(Path cc, byte[] source) throws IOException {
        return CachedBuild.once("crc32c", CachedBuild.key(source, cc, "-O2"), "so", work -> {
            Path c = work.resolve(SOURCE);
            Files.write(c, source);
            Path so = work.resolve("libfthp_crc32c.so");
            CachedBuild.run(List.of(cc.toString(), "-O2", "-shared", "-fPIC", "-o", so.toString(), c.toString()),
                    work, null, "cannot build " + SOURCE);
            return so;
        });
    }

    /** The kernel with its JNI entry, against the running JDK's {@code jni.h}. */
    private static Path buildWithJni(Path cc, byte[] source) throws IOException {
        byte[] jni = CachedBuild.resource(CrcKernel.class, JNI_SOURCE);
        Path include = Path.of(System.getProperty("java.home"), "include");
        byte[] both = new byte[source.length + jni.length];
        System.arraycopy(source, 0, both, 0, source.length);
        System.arraycopy(jni, 0, both, source.length, jni.length);
        return CachedBuild.once("crc32c-jni", CachedBuild.key(both, cc, "-O2", include.toString()), "so", work -> {
            Path c = work.resolve(SOURCE);
            Path j = work.resolve(JNI_SOURCE);
            Files.write(c, source);
            Files.write(j, jni);
            Path so = work.resolve("libfthp_crc32c_jni.so");
            CachedBuild.run(List.of(cc.toString(), "-O2", "-shared", "-fPIC", "-I" + include,
                    "-I" + include.resolve("linux"), "-o", so.toString(), c.toString(), j.toString()),
                    work, null, "cannot build " + JNI_SOURCE);
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
