package org.fthp.replication.progress;

import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The engine's wait loops: every blocking path of the facade and of the
 * engine waits here, taking turns of a duty (a {@code doWork()} that
 * returns how much it did) and idling between fruitless turns with a
 * strategy made for that wait (Agrona's {@code Agent} and
 * {@code IdleStrategy} are the model). Only the gate's holder waits here.
 *
 * <p>The process's duty (runtime.Engine#doWork) progresses operations nobody
 * waits for, acknowledgements and repairs; a wait that must not start a
 * repair (a repair's own waits) passes a narrower duty.
 */
public final class DutyCycle {

    private final IntSupplier duty;
    private final Supplier<IdleStrategy> idleStrategies;
    /**
     * An idle strategy no wait is using, or null: the next wait takes it rather than a fresh one, so a wait
     * allocates nothing. A wait started inside another (from its duty) finds it taken and gets a fresh one.
     */
    private IdleStrategy spare;

    /**
     * @param duty           one turn of the process's background work; returns the units of work done
     * @param idleStrategies a fresh idle strategy for each wait
     */
    public DutyCycle(IntSupplier duty, Supplier<IdleStrategy> idleStrategies) {
        this.duty = duty;
        this.idleStrategies = idleStrategies;
    }

    /** One turn of the process's duty; returns the units of work done. */
    public int doWork() {
        return duty.getAsInt();
    }

    /**
     * Takes turns of the process's duty until {@code done} says so: the waits of point-to-point operations and of
     * everything without a loop of its own.
     */
    public void await(BooleanSupplier done) {
        if (done.getAsBoolean()) {
            return;
        }
        IdleStrategy idle = takeIdle();
        try {
            idle.reset();
            while (!done.getAsBoolean()) {
                idle.idle(duty.getAsInt());
            }
        } finally {
            spare = idle;
        }
    }

    /**
     * As {@link #await(BooleanSupplier)}, in a loop of its own for the program's waits on requests
     * ({@code waitFor}, {@code waitAll}...): see {@link #awaitCollective}.
     */
    public void awaitRequests(BooleanSupplier done) {
        IdleStrategy idle = takeIdle();
        try {
            idle.reset();
            while (!done.getAsBoolean()) {
                idle.idle(duty.getAsInt());
            }
        } finally {
            spare = idle;
        }
    }

    /**
     * As {@link #await(BooleanSupplier)}, in a loop of its own for collectives. The JIT profiles a method's
     * bytecode, not its call sites: one loop for every wait sees the conditions of requests, collectives and
     * point-to-point operations in turn, so its compiled code's type checks and loop predicates, made from the
     * conditions it met first, fail when the next kind arrives, and it is compiled again (four times in an
     * application that alternates halo exchanges with reductions). A loop per kind of wait has one kind of
     * condition and is compiled once. Its callers have polled before waiting, so these loops test {@code done}
     * first in the loop alone: a test of its own before it would have a branch that is almost never taken, which
     * the compiled code leaves out and recompiles for when it is.
     */
    public void awaitCollective(BooleanSupplier done) {
        IdleStrategy idle = takeIdle();
        try {
            idle.reset();
            while (!done.getAsBoolean()) {
                idle.idle(duty.getAsInt());
            }
        } finally {
            spare = idle;
        }
    }

    /** The spare idle strategy, or a fresh one when a wait inside another (from its duty) finds it taken. */
    private IdleStrategy takeIdle() {
        IdleStrategy idle = spare;
        if (idle == null) {
            return idleStrategies.get();
        }
        spare = null;
        return idle;
    }

    /** Waits, taking turns of the duty, until every one of {@code conditions} holds, each turn polling all. */
    public void awaitAll(BooleanSupplier... conditions) {
        if (!allHold(conditions)) {   // all done already (a send-receive to itself): no wait, nor the wait's lambda
            await(() -> allHold(conditions));
        }
    }

    /** Polls every condition once (an operation's poll progresses it); true when all hold. */
    private static boolean allHold(BooleanSupplier[] conditions) {
        boolean all = true;
        for (BooleanSupplier c : conditions) {
            all &= c.getAsBoolean();
        }
        return all;
    }

    /**
     * Takes turns of {@code turn} until {@code done} says so, idling with
     * {@code idle} between fruitless ones. {@code done} and {@code turn} may
     * throw to abandon the wait.
     */
    public static void await(BooleanSupplier done, IntSupplier turn, IdleStrategy idle) {
        idle.reset();
        while (!done.getAsBoolean()) {
            idle.idle(turn.getAsInt());
        }
    }

    /**
     * As {@link #await(BooleanSupplier, IntSupplier, IdleStrategy)}, giving up at {@code deadlineNanos} (on
     * {@link System#nanoTime}'s clock); returns whether {@code done} said so.
     */
    public static boolean awaitUntil(BooleanSupplier done, long deadlineNanos, IntSupplier turn, IdleStrategy idle) {
        idle.reset();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadlineNanos > 0) {
                return false;
            }
            idle.idle(turn.getAsInt());
        }
        return true;
    }

    /** A turn with nothing to do: for waits that must not run the engine's duty (inside a repair's step). */
    public static int noWork() {
        return 0;
    }
}
