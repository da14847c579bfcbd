package org.fthp.replication.progress;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * What a progress loop does between two fruitless polls: spin briefly, then
 * yield for a while, and only then park with growing pauses (after Agrona's
 * BackoffIdleStrategy, with a time bound on the yielding phase).
 *
 * <p>Replicated runs put more processes than cores on a machine; a loop that
 * only spins would starve the very peer it waits for, hence the yields. But
 * the native library advances a nonblocking collective only inside this
 * process's own test calls, and a parked thread sleeps at least the kernel's
 * timer slack (about 50 µs), so parking early stalls every peer waiting on
 * this one: parking starts only after {@code fthp.idle.yieldMicros} of waiting.
 *
 * <p>With {@code -Dfthp.idle.parkWhileCompiling=true}, a wait parks instead of yielding while this JVM's compiler
 * threads compile ({@link JitActivity}): a yield hands the core to whatever else is runnable and only until the
 * next tick, so the compiles of a program's first messages stretch over its start while its ranks spin; a short
 * park leaves the core to them. Off unless asked: a program whose own kernels compile for seconds (HPCG) then
 * parks in every wait of those seconds, and that cost has not been shown smaller than what the compiles gain.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    static final int SPINS = Integer.getInteger("fthp.idle.spins", 100);
    private static final long YIELD_NS = Long.getLong("fthp.idle.yieldMicros", 2_000) * 1_000;
    private static final long MIN_PARK_NS = 1_000;
    private static final long MAX_PARK_NS = Long.getLong("fthp.idle.maxParkMicros", 500) * 1_000;
    private static final boolean PARK_WHILE_COMPILING =
            Boolean.getBoolean("fthp.idle.parkWhileCompiling");
    /** A park while the compilers work: about the kernel's timer slack, a small part of a compile. */
    static final long COMPILING_PARK_NS = 20_000;

    /** Whether the JIT compiles now: asked in the yielding phase only, so never on a short wait. */
    private final BooleanSupplier compiling;
    private int spins;
    private long yieldingSince;
    private long parkNs;

    /** Backs off as above; parks while this process's JIT compiles only if fthp.idle.parkWhileCompiling says so. */
    public BackoffIdleStrategy() {
        this(PARK_WHILE_COMPILING ? JitActivity.PROCESS::compiling : () -> false);
    }

    /** Backs off as above, parking instead of yielding while {@code compiling} says so. */
    BackoffIdleStrategy(BooleanSupplier compiling) {
        this.compiling = compiling;
    }

    @Override
    public void reset() {
        spins = 0;
        yieldingSince = 0;
        parkNs = MIN_PARK_NS;
    }

    @Override
    public void idle() {
        if (spins < SPINS) {
            spins++;
            Thread.onSpinWait();
            return;
        }
        long now = System.nanoTime();
        if (yieldingSince == 0) {
            yieldingSince = now;
        }
        if (now - yieldingSince < YIELD_NS) {
            if (compiling.getAsBoolean()) {
                LockSupport.parkNanos(COMPILING_PARK_NS);
            } else {
                Thread.yield();
            }
            return;
        }
        LockSupport.parkNanos(parkNs);
        parkNs = Math.min(parkNs << 1, MAX_PARK_NS);
    }
}
