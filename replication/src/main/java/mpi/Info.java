package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An MPI info object: an ordered set of string key/value hints. Kept
 * entirely in Java: replicas must see identical hints, and nothing here
 * needs the native library.
 */
public final class Info implements Freeable, Cloneable {

    /** Handle of MPI.INFO_NULL. Not a compile-time constant, as in Open MPI. */
    protected static final long NULL = nullHandle();

    // Open MPI's mpi.h limits (MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL), terminator included.
    private static final int MAX_KEY = 36;
    private static final int MAX_VALUE = 256;

    /** Handles only identify objects (toString, debugging); 0 is reserved for INFO_NULL. */
    private static final AtomicLong NEXT_HANDLE = new AtomicLong(1);

    protected long handle;

    private final Map<String, String> entries = new LinkedHashMap<>();
    private final boolean predefined;

    /** MPI_Info_create: an empty info object. */
    public Info() throws MPIException {
        MPI.check();
        this.handle = NEXT_HANDLE.getAndIncrement();
        this.predefined = false;
    }

    /** Wraps a handle; {@code new Info(NULL)} is the INFO_NULL object. */
    protected Info(long handle) {
        this.handle = handle;
        this.predefined = handle == NULL;
    }

    private Info(Map<String, String> entries) {
        this.handle = NEXT_HANDLE.getAndIncrement();
        this.predefined = false;
        this.entries.putAll(entries);
    }

    private static long nullHandle() {
        return 0;
    }

    /**
     * MPI_INFO_ENV. Open MPI fills it with launch details (command, maxprocs,
     * ...); FTHP-J leaves it empty because those differ between replicas
     * while applications must behave identically on all of them.
     */
    protected static Info newEnv() {
        return new Info(NEXT_HANDLE.getAndIncrement(), true);
    }

    private Info(long handle, boolean predefined) {
        this.handle = handle;
        this.predefined = predefined;
    }

    public void set(String key, String value) throws MPIException {
        MPI.check();
        checkKey(key);
        if (value == null || value.isEmpty() || value.length() >= MAX_VALUE) {
            throw new MPIException("invalid info value for key \"" + key + "\" (must be 1.."
                    + (MAX_VALUE - 1) + " characters)");
        }
        synchronized (entries) {
            entries.put(key, value);
        }
    }

    /** The value of a key, or null if the key is not set. */
    public String get(String key) throws MPIException {
        MPI.check();
        checkKey(key);
        synchronized (entries) {
            return entries.get(key);
        }
    }

    public void delete(String key) throws MPIException {
        MPI.check();
        checkKey(key);
        synchronized (entries) {
            if (entries.remove(key) == null) {
                throw new MPIException("info key \"" + key + "\" is not set");
            }
        }
    }

    /** Number of keys set (MPI_Info_get_nkeys). */
    public int size() throws MPIException {
        MPI.check();
        checkUsable();
        synchronized (entries) {
            return entries.size();
        }
    }

    /** The i-th key, in insertion order (MPI_Info_get_nthkey). */
    public String getKey(int i) throws MPIException {
        MPI.check();
        checkUsable();
        synchronized (entries) {
            if (i < 0 || i >= entries.size()) {
                throw new MPIException("info key index " + i + " out of range [0," + entries.size() + ")");
            }
            List<String> keys = new ArrayList<>(entries.keySet());
            return keys.get(i);
        }
    }

    /** Same as dup(); an MPIException becomes a RuntimeException, as Cloneable forbids checked ones. */
    @Override
    public Info clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    public Info dup() throws MPIException {
        MPI.check();
        checkUsable();
        synchronized (entries) {
            return new Info(entries);
        }
    }

    /** MPI_Info_free: afterwards this object is INFO_NULL-like (isNull() is true). */
    @Override
    public void free() throws MPIException {
        MPI.check();
        checkUsable();
        if (predefined) {
            throw new MPIException("predefined info objects cannot be freed");
        }
        synchronized (entries) {
            entries.clear();
        }
        handle = NULL;
    }

    public boolean isNull() {
        return handle == NULL;
    }

    /** A snapshot of the entries, for the runtime to pass hints on. */
    Map<String, String> toMap() {
        synchronized (entries) {
            return new LinkedHashMap<>(entries);
        }
    }

    private void checkKey(String key) throws MPIException {
        checkUsable();
        if (key == null || key.isEmpty() || key.length() >= MAX_KEY) {
            throw new MPIException("invalid info key (must be 1.." + (MAX_KEY - 1) + " characters)");
        }
    }

    private void checkUsable() throws MPIException {
        if (isNull()) {
            throw new MPIException("MPI.INFO_NULL (or a freed Info) cannot be used");
        }
    }

    @Override
    public String toString() {
        return isNull() ? "Info[NULL]" : "Info" + toMap();
    }
}
