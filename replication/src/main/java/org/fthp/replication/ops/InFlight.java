package org.fthp.replication.ops;

/**
 * Every operation started and not yet complete, oldest first: what a repair
 * must move onto the new communicators, in the order the program started
 * them (receives from one source with one tag match in that order).
 *
 * <p>An intrusive list, so starting and finishing an operation costs two
 * pointer writes and no allocation. Only the thread that calls MPI touches it.
 */
public final class InFlight {

    /** What the list holds (an operation), linked in place. */
    abstract static class Entry {
        /** Links in the list (repair walks it in the order the operations were started). */
        Entry newer;
        Entry older;

        /** Progresses it once; true once complete. */
        abstract boolean poll();

        /** Moves it onto the repaired communicators. */
        abstract void abandonForRepair();

        /** Settles it if it only waits to hand its outcome to the replica. */
        abstract void settleIfForwarding();

        /** Asks the native library to cancel it (a rollback abandons the run it belongs to). */
        abstract void cancelForRollback();

        /**
         * Whether its native requests only read memory (a send, or a receive into the engine's own scratch memory),
         * so that, abandoned unfinished, it can never change what the program sees.
         */
        boolean onlyReadsProgramMemory() {
            return false;
        }
    }

    private Entry oldest;
    private Entry newest;
    private boolean repairing;

    InFlight() {}

    void add(Entry op) {
        op.older = newest;
        op.newer = null;
        if (newest != null) {
            newest.newer = op;
        } else {
            oldest = op;
        }
        newest = op;
    }

    void remove(Entry op) {
        if (op.older == null && op.newer == null && oldest != op) {
            return;
        }
        if (op.older != null) {
            op.older.newer = op.newer;
        } else {
            oldest = op.newer;
        }
        if (op.newer != null) {
            op.newer.older = op.older;
        } else {
            newest = op.older;
        }
        op.older = null;
        op.newer = null;
    }

    /**
     * Moves every operation in flight onto the repaired communicators, oldest
     * first. Replacements started meanwhile join the list after them and are
     * not visited again.
     */
    public void reissueAll() {
        forEachStartedBefore(Entry::abandonForRepair);
    }

    /** {@code action} on every operation in flight now, oldest first; ones it starts join after them, unvisited. */
    private void forEachStartedBefore(java.util.function.Consumer<Entry> action) {
        Entry last = newest;
        Entry op = oldest;
        while (op != null) {
            Entry next = op == last ? null : op.newer;
            action.accept(op);
            op = next;
        }
    }

    /**
     * Whether a repair is under way: the operations it starts itself (new
     * communicators, resends) are simply dropped if a newer failure
     * interrupts it, since the next attempt starts over.
     */
    public void repairing(boolean on) {
        repairing = on;
    }

    boolean repairing() {
        return repairing;
    }

    /**
     * Progresses every operation once, oldest first: before a promoted
     * replica abandons its twin channel, a decision its posted receive
     * already matched is taken by its operation rather than lost. An
     * operation that completes with an error here (the program's own receive
     * into too small a buffer, say) keeps it for the program's wait: it is
     * the program's to handle, not the repair's.
     */
    public void pollAll() {
        forEachStartedBefore(op -> {
            try {
                op.poll();
            } catch (RuntimeException e) {
                // kept by the operation (NativeOp#poll throws it again to the program's wait)
            }
        });
    }

    /** Settles every operation that only waits to hand its outcome to the replica (see {@link NativeOp}). */
    public void settleForwarding() {
        Entry op = oldest;
        while (op != null) {
            Entry next = op.newer;
            op.settleIfForwarding();
            op = next;
        }
    }

    /**
     * A rollback in place abandons this run: every operation is asked to cancel (a receive not matched yet
     * then completes as cancelled; a send is not cancelled by the native library) and those that could still write
     * program memory are progressed until complete or {@code deadlineNanos}, so no receive of the old run writes
     * program memory once the body runs again. A send (to the dead process, say) is not waited for: it may never
     * complete, and it only reads. Whether every operation that could write completed.
     */
    public boolean cancelAll(long deadlineNanos) {
        forEachStartedBefore(op -> {
            try {
                op.cancelForRollback();
            } catch (RuntimeException e) {
                // already failed or complete: the polls below settle it
            }
        });
        while (anyWriter() && System.nanoTime() < deadlineNanos) {
            pollAll();
        }
        return !anyWriter();
    }

    private boolean anyWriter() {
        for (Entry op = oldest; op != null; op = op.newer) {
            if (!op.onlyReadsProgramMemory()) {
                return true;
            }
        }
        return false;
    }

    /** How many operations are in flight (for tests and statistics). */
    public int count() {
        int n = 0;
        for (Entry op = oldest; op != null; op = op.newer) {
            n++;
        }
        return n;
    }
}
