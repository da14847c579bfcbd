package org.fthp.replication.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Who may touch the facade's state now: the program's thread inside an MPI
 * call, or the repair thread while the program computes outside MPI. Every
 * public call that reaches communicators, requests or logs holds it for its
 * whole length, so a repair never sees a call half-way through (it replaces
 * structures and moves operations in flight). Reentrant: calls nest.
 *
 * <p>A gate starts <em>serialised</em>: the engine grants at most
 * {@code MPI_THREAD_SERIALIZED}, so the program's own calls never overlap
 * (the program orders them), and without a repair thread nobody else enters.
 * Entering and leaving is then a count in a plain field, which costs the
 * interpreter and C1 a few bytecodes where an atomic owner costs them a chain
 * of {@code VarHandle} frames on every call (the first seconds of a program run
 * mostly interpreted). {@link #share} turns it into a lock for good, before
 * a second thread (the repair thread of a replicated job) may enter, or from
 * the start when the program asked for {@code MPI_THREAD_MULTIPLE} (granted
 * SERIALIZED, it may still call from two threads at once).
 *
 * <p>Shared, it is a lock of its own rather than a {@code ReentrantLock}:
 * entering is one compare-and-set of the owner, leaving one release store (no
 * fence, no queue to look at). The price is that nobody is woken:
 * a thread that finds the gate taken spins, yields, then parks for growing
 * pauses of at most {@link #MAX_PARK_NANOS} and looks again. Contention is
 * rare (the repair thread while the program is inside MPI, or a
 * multithreaded program's second thread), and both wait far longer anyway.
 *
 * <p>Without a queue nothing is fair, and a program that polls in a tight
 * loop ({@code testSome} until something arrives) leaves the gate open for a
 * few nanoseconds between calls: a parked waiter would almost never find it
 * open, and the repair the other survivors wait for would not start. So
 * {@link #tryEnter} (the repair
 * thread) announces itself, and the program's next entry from outside MPI
 * waits until that thread has had its turn. A nested entry never waits: the
 * program may be inside a call that the repair needs finished.
 *
 * <p>The release store and the next owner's compare-and-set order everything
 * the previous owner wrote before leaving, the native library's memory
 * included: they are the processor's barriers, not only the Java memory
 * model's.
 */
public final class Gate {

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(Gate.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int SPINS = 100;
    private static final int YIELDS = 100;
    private static final long MAX_PARK_NANOS = 50_000;
    /** A program letting the repair thread go first looks again this often: that thread takes the gate sooner. */
    private static final long LET_FIRST_PARK_NANOS = 20_000;

    /** The thread inside, or null. Written by compare-and-set (enter) and release store (leave). */
    @SuppressWarnings("unused")
    private volatile Thread owner;
    /** A thread in {@link #tryEnter} that entries from outside let go first, or null. */
    private volatile Thread yieldTo;
    /** How deeply the owner has entered; only the owner reads or writes it. */
    private int depth;
    /**
     * Whether another thread than the program's may enter ({@link #share}): then the owner is taken by
     * compare-and-set. Written once, by the program's thread before that other thread starts.
     */
    private boolean shared;
    /** Entries so far: the program's MPI calls, nested ones included (what {@code --kill R#CALL} counts). */
    private long entries;
    /** The entry at which this process kills itself; 0: never. */
    private long killAt;
    private int nativeRank;

    public void enter() {
        RollbackSignal rollback = tripped;
        if (rollback != null) {
            // nothing of the old run may block or communicate while the program unwinds to its resilient body
            throw rollback;
        }
        if (shared) {
            enterShared();
        } else {
            depth++;
        }
        if (++entries == killAt) {
            org.fthp.replication.failure.CallKill.now(nativeRank, killAt);
        }
    }

    /**
     * From now on the gate is a lock: another thread than the program's (the repair thread) may enter. Called by
     * the program's thread, outside every call, before that thread starts.
     */
    public void share() {
        if (depth != 0) {
            throw new IllegalStateException("the gate is shared from inside a call");
        }
        shared = true;
    }

    private void enterShared() {
        Thread me = Thread.currentThread();
        Thread first = yieldTo;
        if (first != null && first != me && OWNER.getOpaque(this) != me) {
            letFirst(first);
        }
        if (!tryTake(me)) {
            await(me, Long.MAX_VALUE);
        }
    }

    /** Set once the coordinators announce a rollback: every later call throws it. */
    private volatile RollbackSignal tripped;

    /** From now on every call into MPI throws {@code rollback} (see {@link RollbackSignal}). */
    void trip(RollbackSignal rollback) {
        tripped = rollback;
    }

    /**
     * A rollback abandons this gate's engine: taken by the calling thread and never given back, so that no other
     * thread (its repair thread) enters the engine again, whatever is tripped.
     */
    void takeForGood() {
        if (!shared) {
            depth++;   // never left: a serialised gate has no other thread to keep out
            return;
        }
        Thread me = Thread.currentThread();
        if (!tryTake(me)) {
            await(me, Long.MAX_VALUE);
        }
    }

    /**
     * A rollback's gate goes on counting where {@code old} stopped: a {@code --kill R#C} names the process's C-th MPI
     * call of its life, whichever engine makes it.
     */
    void continueFrom(Gate old) {
        entries = old.entries;
        killAt = old.killAt;
        nativeRank = old.nativeRank;
        shared = old.shared;
    }

    /** The rollback every call throws, or null. */
    RollbackSignal tripped() {
        return tripped;
    }

    public long entries() {
        return entries;
    }

    /** This process dies as it enters its {@code call}-th call from now (0: never). */
    public void killAtCall(int rank, long call) {
        nativeRank = rank;
        killAt = call == 0 ? 0 : entries + call;
    }

    /** Leaves once; the gate opens when the owner has left as often as it entered. */
    public void exit() {
        if (!shared) {
            if (depth == 0) {
                throw new IllegalMonitorStateException("the gate is not held");
            }
            depth--;
            return;
        }
        if (OWNER.getOpaque(this) != Thread.currentThread()) {
            throw new IllegalMonitorStateException("the gate is not held by this thread");
        }
        if (--depth == 0) {
            OWNER.setRelease(this, (Thread) null);
        }
    }

    /**
     * For the repair thread, on a shared gate: enters only if the program leaves MPI within the time given. Not
     * one of the program's calls: {@link #entries} does not count it.
     */
    public boolean tryEnter(long nanos) throws InterruptedException {
        if (!shared) {
            throw new IllegalStateException("a serialised gate admits no other thread: share it first");
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread me = Thread.currentThread();
        if (tryTake(me)) {
            return true;
        }
        yieldTo = me;
        try {
            return await(me, System.nanoTime() + nanos);
        } finally {
            yieldTo = null;
        }
    }

    /**
     * Waits while {@code first} is announced: it clears the announcement once
     * it has entered (then this thread waits for the gate as usual) or given
     * up (its wait is bounded).
     */
    private void letFirst(Thread first) {
        for (int turn = 0; yieldTo == first; turn++) {
            pause(turn, LET_FIRST_PARK_NANOS);
        }
    }

    /** The {@code turn}-th pause of a wait: spin, then yield the core, then park; returns whether it parked. */
    private static boolean pause(int turn, long parkNanos) {
        if (turn < SPINS) {
            Thread.onSpinWait();
            return false;
        }
        if (turn < SPINS + YIELDS) {
            Thread.yield();
            return false;
        }
        LockSupport.parkNanos(parkNanos);
        return true;
    }

    /** Enters at once if the gate is open or already ours. */
    private boolean tryTake(Thread me) {
        Object now = OWNER.getOpaque(this);
        if (now == me) {
            depth++;
            return true;
        }
        if (now == null && OWNER.compareAndSet(this, (Thread) null, me)) {
            depth = 1;
            return true;
        }
        return false;
    }

    /** Waits for the gate until {@code deadline} (System.nanoTime); returns whether it entered. */
    private boolean await(Thread me, long deadline) {
        long park = 1_000;
        for (int turn = 0; ; turn++) {
            if (tryTake(me)) {
                return true;
            }
            if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
                return false;
            }
            if (pause(turn, park)) {
                park = Math.min(park << 1, MAX_PARK_NANOS);
            }
        }
    }
}
