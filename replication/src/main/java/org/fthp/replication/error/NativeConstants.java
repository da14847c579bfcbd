package org.fthp.replication.error;

import java.util.Map;

import org.fthp.empi.abi.AbiProbe;

/**
 * Integer constants of the installed native MPI, read from its ABI description
 * without loading the library, so {@code MPI}'s fields exist even when the
 * library cannot be used; {@code MPI.Init} then reports why.
 */
public final class NativeConstants {

    private final Map<String, Integer> values;
    private final String loadError;

    private NativeConstants(Map<String, Integer> values, String loadError) {
        this.values = values;
        this.loadError = loadError;
    }

    public static NativeConstants load() {
        try {
            return new NativeConstants(AbiProbe.load().constants(), null);
        } catch (Exception | LinkageError e) {
            return new NativeConstants(Map.of(), String.valueOf(e.getMessage()));
        }
    }

    public int get(String name, int fallback) {
        return values.getOrDefault(name, fallback);
    }

    public String loadError() {
        return loadError;
    }
}
