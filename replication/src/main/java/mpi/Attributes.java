package mpi;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Attribute values cached on an object, by keyval (MPI attribute caching, Java side only). */
final class Attributes {

    private static final AtomicInteger NEXT_KEYVAL = new AtomicInteger(1000);

    private final Map<Integer, Object> values = new HashMap<>();

    static int createKeyval() throws MPIException {
        MPI.check();
        return NEXT_KEYVAL.getAndIncrement();
    }

    static void freeKeyval(int keyval) throws MPIException {
        MPI.check();
    }

    synchronized void set(int keyval, Object value) {
        values.put(keyval, value);
    }

    synchronized Object get(int keyval) {
        return values.get(keyval);
    }

    synchronized void delete(int keyval) {
        values.remove(keyval);
    }
}
