package org.fthp.empi.abi;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The ABI of one installed native MPI library, as measured by the probe
 * ({@code empi_abi_probe.c}) compiled with that library's {@code mpicc}.
 * Nothing above this class knows whether handles are pointers or integers,
 * or where {@code MPI_Status} keeps its fields.
 */
public final class EmpiAbi {

    /** How a predefined handle (MPI_COMM_WORLD, MPI_INT, ...) is found at run time. */
    public sealed interface HandleRef permits Symbol, IntValue {}

    /** The handle is the address of an exported object (Open MPI). */
    public record Symbol(String name) implements HandleRef {}

    /** The handle is a plain integer (MPICH). */
    public record IntValue(long value) implements HandleRef {}

    private final Path source;
    private final String libraryPath;
    private final String family;
    private final String version;
    private final int handleBytes;
    private final int statusBytes;
    private final int statusSourceOffset;
    private final int statusTagOffset;
    private final int statusErrorOffset;
    private final long bottomAddress;
    private final Map<String, Integer> constants;
    private final Map<String, HandleRef> handles;

    private EmpiAbi(Path source, Properties p) {
        this.source = source;
        this.libraryPath = p.getProperty("library.path");
        this.family = p.getProperty("library.family", "unknown");
        this.version = p.getProperty("library.version", "?");
        this.handleBytes = intProp(p, "handle.bytes");
        this.statusBytes = intProp(p, "status.bytes");
        this.statusSourceOffset = intProp(p, "status.source");
        this.statusTagOffset = intProp(p, "status.tag");
        this.statusErrorOffset = intProp(p, "status.error");
        this.bottomAddress = Long.parseLong(p.getProperty("bottom.address", "0").trim());
        if (handleBytes != 4 && handleBytes != 8) {
            throw new IllegalStateException("unsupported MPI handle width " + handleBytes + " in " + source);
        }
        if (intProp(p, "aint.bytes") != 8 || intProp(p, "count.bytes") != 8) {
            throw new IllegalStateException("only 64-bit MPI_Aint/MPI_Count are supported (" + source + ")");
        }
        Map<String, Integer> c = new TreeMap<>();
        Map<String, HandleRef> h = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("const.")) {
                c.put(key.substring(6), Integer.parseInt(p.getProperty(key).trim()));
            } else if (key.startsWith("handle.") && !key.equals("handle.bytes")) {
                h.put(key.substring(7), parseHandle(key, p.getProperty(key).trim()));
            }
        }
        this.constants = Map.copyOf(c);
        this.handles = Map.copyOf(h);
    }

    public static EmpiAbi read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        try {
            return new EmpiAbi(file, p);
        } catch (RuntimeException e) {
            throw new IOException("malformed MPI ABI description " + file + ": " + e.getMessage(), e);
        }
    }

    private static HandleRef parseHandle(String key, String value) {
        if (value.startsWith("symbol:")) {
            return new Symbol(value.substring(7));
        }
        if (value.startsWith("int:")) {
            return new IntValue(Long.parseLong(value.substring(4)));
        }
        throw new IllegalArgumentException(key + "=" + value);
    }

    private static int intProp(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException("missing " + key);
        }
        return Integer.parseInt(v.trim());
    }

    public Path source() { return source; }
    public String libraryPath() { return libraryPath; }
    public String family() { return family; }
    public String version() { return version; }
    public int handleBytes() { return handleBytes; }
    public int statusBytes() { return statusBytes; }
    public int statusSourceOffset() { return statusSourceOffset; }
    public int statusTagOffset() { return statusTagOffset; }
    public int statusErrorOffset() { return statusErrorOffset; }

    /** The address MPI_BOTTOM stands for: buffers described by absolute addresses start there. */
    public long bottomAddress() { return bottomAddress; }

    /** An integer constant such as {@code MPI_ANY_SOURCE}; fails loudly if the probe did not report it. */
    public int constant(String name) {
        Integer v = constants.get(name);
        if (v == null) {
            throw new IllegalStateException("MPI constant " + name + " not in " + source);
        }
        return v;
    }

    public HandleRef handle(String name) {
        HandleRef ref = handles.get(name);
        if (ref == null) {
            throw new IllegalStateException("MPI handle " + name + " not in " + source);
        }
        return ref;
    }

    public Map<String, Integer> constants() { return constants; }
}
