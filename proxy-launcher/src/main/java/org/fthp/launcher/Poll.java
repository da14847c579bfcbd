package org.fthp.launcher;

import java.util.function.BooleanSupplier;

/**
 * The launcher's one way to wait for something no event announces: a process that is not our child ending (the
 * JDK's {@code onExit} for those sleeps 300 ms and more between looks, which would add seconds to a restart), a
 * file appearing, a registration count reaching a number. One period for all of them.
 */
public final class Poll {

    /** Short against a rank's exit or a restart (tens of ms), long enough to cost nothing while it waits. */
    public static final long PERIOD_MILLIS = 5;

    /** A deadline that never passes. */
    public static final long NEVER = Long.MAX_VALUE;

    private Poll() {}

    /**
     * Waits until {@code done} holds or {@code deadlineNanos} ({@link System#nanoTime}, or {@link #NEVER}) has passed; returns
     * whether it holds. An interrupt ends the wait early (the flag is kept) with the condition's last answer.
     */
    public static boolean until(BooleanSupplier done, long deadlineNanos) {
        while (!done.getAsBoolean()) {
            if (deadlineNanos != NEVER && System.nanoTime() - deadlineNanos >= 0) {
                return false;
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return done.getAsBoolean();
            }
        }
        return true;
    }

    /** {@link #until(BooleanSupplier, long)} within {@code millis} from now. */
    public static boolean within(BooleanSupplier done, long millis) {
        return until(done, System.nanoTime() + millis * 1_000_000);
    }

    /** Waits, at most {@code millis}, until {@code process} has ended; returns whether it has. */
    public static boolean gone(ProcessHandle process, long millis) {
        return within(() -> !process.isAlive(), millis);
    }
}
