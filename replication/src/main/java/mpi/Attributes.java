package mpi;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Attribute values cached on one communicator or window, by keyval, with the
 * semantics of Open MPI's Java binding (kept in Java; nothing here reaches the
 * native library, whose communicators a repair replaces):
 * <ul>
 *   <li>a value is stored serialized ({@link MPI#attrSet}), so {@code getAttr}
 *       returns a copy and a later change to the object set does not show;
 *       a value that cannot be serialized is refused;
 *   <li>the binding's copy callback copies every value on a dup (a deep copy,
 *       the serialized bytes), its delete callback frees it: a freed or
 *       deleted value is simply gone;
 *   <li>the predefined attributes (TAG_UB, HOST, IO, WTIME_IS_GLOBAL, APPNUM,
 *       UNIVERSE_SIZE, LASTUSEDCODE) are set on COMM_WORLD by MPI.Init and
 *       inherited by its dups, except LASTUSEDCODE, as Open MPI creates them;
 *       a program cannot set, delete or free them.
 * </ul>
 */
final class Attributes {

    /** The keyvals a program created and has not freed, of one kind of object (communicators, windows, datatypes). */
    static final class Keyvals {

        /** Above every predefined keyval (MPI.TAG_UB .. MPI.WIN_DISP_UNIT). */
        private static final int FIRST_USER_KEYVAL = 1000;

        private final AtomicInteger next = new AtomicInteger(FIRST_USER_KEYVAL);
        private final Set<Integer> live = ConcurrentHashMap.newKeySet();

        int create() throws MPIException {
            MPI.check();
            int k = next.getAndIncrement();
            live.add(k);
            return k;
        }

        /** Values already cached under the keyval stay until deleted or their object is freed (MPI 3.1 §6.7.2). */
        void free(int keyval) throws MPIException {
            MPI.check();
            if (!live.remove(keyval)) {
                throw Errors.error(MPI.ERR_KEYVAL, "keyval " + keyval + " is predefined, freed or was never created");
            }
        }

        boolean isLive(int keyval) {
            return live.contains(keyval);
        }
    }

    static final Keyvals COMM_KEYVALS = new Keyvals();
    static final Keyvals WIN_KEYVALS = new Keyvals();
    static final Keyvals TYPE_KEYVALS = new Keyvals();

    private final Keyvals keyvals;
    /** Program values, serialized. */
    private final Map<Integer, byte[]> values = new HashMap<>();
    /** Predefined values, by their predefined keyval. */
    private final Map<Integer, Object> predefined = new HashMap<>();

    Attributes(Keyvals keyvals) {
        this.keyvals = keyvals;
    }

    /** The predefined attributes of COMM_WORLD (MPI.Init), with the logical job's values. */
    void setWorldAttributes(int tagUpperBound, int universeSize) {
        predefined.put(MPI.TAG_UB, tagUpperBound);
        predefined.put(MPI.HOST, MPI.PROC_NULL);
        predefined.put(MPI.IO, MPI.ANY_SOURCE);
        predefined.put(MPI.WTIME_IS_GLOBAL, Boolean.FALSE);
        predefined.put(MPI.APPNUM, 0);
        predefined.put(MPI.UNIVERSE_SIZE, universeSize);
        // no MPI.addErrorCode in the binding: the last used code stays the last predefined one
        predefined.put(MPI.LASTUSEDCODE, MPI.ERR_LASTCODE);
    }

    /** A window's predefined attributes (MPI_WIN_BASE is the base buffer itself in the binding). */
    void setWindowAttributes(Object base, int size, int dispUnit) {
        predefined.put(MPI.WIN_BASE, base);
        predefined.put(MPI.WIN_SIZE, size);
        predefined.put(MPI.WIN_DISP_UNIT, dispUnit);
    }

    private boolean isPredefined(int keyval) {
        return keyval > 0 && keyval < Keyvals.FIRST_USER_KEYVAL;
    }

    synchronized void set(int keyval, Object value) throws MPIException {
        if (!keyvals.isLive(keyval)) {
            throw Errors.error(MPI.ERR_KEYVAL, "keyval " + keyval + (isPredefined(keyval)
                    ? " is predefined: its value cannot be set" : " is freed or was never created"));
        }
        values.put(keyval, MPI.attrSet(value));
    }

    /** The value, or null if none is cached under the keyval. */
    synchronized Object get(int keyval) throws MPIException {
        if (isPredefined(keyval)) {
            return predefined.get(keyval);
        }
        byte[] v = values.get(keyval);
        if (v == null && !keyvals.isLive(keyval)) {
            throw Errors.error(MPI.ERR_KEYVAL, "keyval " + keyval + " is freed or was never created");
        }
        return MPI.attrGet(v);
    }

    synchronized void delete(int keyval) throws MPIException {
        if (isPredefined(keyval)) {
            throw Errors.error(MPI.ERR_KEYVAL, "keyval " + keyval + " is predefined: it cannot be deleted");
        }
        if (values.remove(keyval) == null && !keyvals.isLive(keyval)) {
            throw Errors.error(MPI.ERR_KEYVAL, "keyval " + keyval + " is freed or was never created");
        }
    }

    /** What a dup inherits: every program value (copied), every predefined one except LASTUSEDCODE. */
    synchronized Attributes copyForDup() {
        Attributes c = new Attributes(keyvals);
        values.forEach((k, v) -> c.values.put(k, v.clone()));
        c.predefined.putAll(predefined);
        c.predefined.remove(MPI.LASTUSEDCODE);
        return c;
    }

    /** The object is freed: every value goes (the binding's delete callback frees each). */
    synchronized void clear() {
        values.clear();
        predefined.clear();
    }
}
