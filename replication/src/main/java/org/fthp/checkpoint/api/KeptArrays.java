package org.fthp.checkpoint.api;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.fthp.replication.datatype.UserBuffer;

/**
 * The arrays an unwound resilient body registered through {@code Checkpoint.registerArray}, kept across a rollback
 * in place so that the rerun gets them back rather than allocating (and collecting) its state again, and handed back
 * zeroed, as a new array would be.
 *
 * <p>The zeroing is a pass over the whole state. It is done in the background as soon as the old run can no longer
 * write into the arrays ({@link #settled}: its operations are cancelled and completed), while the process waits for
 * every other in the rollback's readiness round, so the rerun's {@link #take} only waits for it, if at all. An array
 * {@link #settled} was not told of is zeroed by {@link #take} itself.
 */
final class KeptArrays {

    private final Map<String, Object> byName = new HashMap<>();
    /** Kept arrays not given to a zeroing yet. */
    private final List<Object> dirty = new ArrayList<>();
    /** The last zeroing started; the earlier ones completed before it began. */
    private CompletableFuture<Void> zeroing = CompletableFuture.completedFuture(null);

    /** {@code array} was registered under {@code name} by the body that unwound: kept for the rerun. */
    synchronized void keep(String name, Object array) {
        byName.put(name, array);
        dirty.add(array);
    }

    /** The old run can no longer write into the kept arrays: zero them on a thread of their own. */
    synchronized void settled() {
        if (dirty.isEmpty()) {
            return;
        }
        List<Object> batch = List.copyOf(dirty);
        dirty.clear();
        CompletableFuture<Void> before = zeroing;
        CompletableFuture<Void> done = new CompletableFuture<>();
        zeroing = done;
        Thread.ofPlatform().daemon().name("fthp-kept-arrays-zeroing").start(() -> {
            try {
                before.join();
                batch.forEach(KeptArrays::zero);
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
    }

    /**
     * The array kept under {@code name}, zeroed, if it has {@code type} and {@code length} (else null: the caller
     * allocates, and the kept one is garbage).
     */
    Object take(String name, Class<?> type, int length) {
        Object kept;
        boolean notZeroing;
        CompletableFuture<Void> pending;
        synchronized (this) {
            kept = byName.remove(name);
            if (kept == null) {
                return null;
            }
            notZeroing = dirty.removeIf(a -> a == kept);
            if (kept.getClass() != type || Array.getLength(kept) != length) {
                return null;
            }
            pending = zeroing;
        }
        if (notZeroing) {
            zero(kept);
        } else {
            try {
                // completes once every zeroing up to the last has (each waits for the one before it)
                pending.join();
            } catch (CompletionException e) {
                zero(kept);
            }
        }
        return kept;
    }

    /** The rerun recovered or went on without asking for what is left: garbage from now on. */
    synchronized void clear() {
        byName.clear();
        dirty.clear();
    }

    /** An intrinsic fill, whether or not the JIT has compiled a loop over this type yet. */
    private static void zero(Object array) {
        MemorySegment bytes = UserBuffer.arraySegment(array);
        if (bytes == null) {
            throw new IllegalStateException("kept " + array.getClass());
        }
        bytes.fill((byte) 0);
    }
}
