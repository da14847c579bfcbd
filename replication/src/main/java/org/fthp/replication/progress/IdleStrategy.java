package org.fthp.replication.progress;

/**
 * What a wait does between two turns of the duty cycle (after Agrona's
 * {@code IdleStrategy}): a turn that did work resets it, a fruitless one
 * idles a little longer. Each wait has its own instance: the strategies keep
 * how long the wait has gone fruitless.
 */
public interface IdleStrategy {

    /** Called after a turn that did {@code workCount} units of work: idles only if it did none. */
    default void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    /** Called after a turn that found nothing to do. */
    void idle();

    /** Called before a wait starts, and after a turn that made progress. */
    void reset();
}
