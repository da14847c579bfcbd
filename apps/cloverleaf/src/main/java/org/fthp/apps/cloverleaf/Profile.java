package org.fthp.apps.cloverleaf;

/** Seconds spent in each part of the step on this rank (the reference's profiler, printed with profiler_on). */
final class Profile {

    enum Part {
        TIMESTEP("Timestep"), IDEAL_GAS("Ideal Gas"), VISCOSITY("Viscosity"), PDV("PdV"), REVERT("Revert"),
        ACCELERATION("Acceleration"), FLUXES("Fluxes"), CELL_ADVECTION("Cell Advection"),
        MOMENTUM_ADVECTION("Momentum Advection"), RESET("Reset"), HALO_EXCHANGE("Halo Exchange"),
        SUMMARY("Summary");

        final String label;

        Part(String label) {
            this.label = label;
        }
    }

    /** Nanoseconds per part; checkpointed, so a resumed run's profile covers the whole run. */
    final long[] nanos = new long[Part.values().length];
    private long start;

    void begin() {
        start = System.nanoTime();
    }

    /** Charges the time since {@link #begin} (or the previous {@code end}) to a part. */
    void end(Part p) {
        long now = System.nanoTime();
        nanos[p.ordinal()] += now - start;
        start = now;
    }

    void add(Part p, double seconds) {
        nanos[p.ordinal()] += (long) (seconds * 1e9);
    }

    double seconds(Part p) {
        return nanos[p.ordinal()] * 1e-9;
    }

    double total() {
        long t = 0;
        for (long n : nanos) {
            t += n;
        }
        return t * 1e-9;
    }
}
