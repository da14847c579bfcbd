package org.fthp.replication.sdc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One copy's running hash of what it gives the rest of the job: every program-level send (its payload and its
 * envelope: communicator, destination, tag, byte count) and every contribution to a collective, in the order the
 * program makes them, once each, including the sends a replica only logs. Twins run the same program over the same
 * inputs, so their hashes agree unless one of them computed something else (docs/DESIGN.md §22). Resends after a
 * repair and the engine's own messages never pass here.
 *
 * <p>Folded into the pack into staging, right after each block is copied and still in cache; a large logged payload
 * is folded once its native sends or pull offers are out, beside the receivers' copy; nothing allocated.
 * One per process ({@link #active}, null when this process neither compares nor injects): the send path and the
 * collectives reach it without a context of their own to carry it. MPI calls are serialised by the gate, so the
 * state needs no lock.
 */
public final class SendDigest {

    private static SendDigest active;

    /** Whether this copy has a twin to compare with (otherwise it only injects). */
    private final boolean comparing;
    /** Null: nothing to inject. */
    private final Corruption corruption;
    private final MemorySegment envelope = Arena.ofAuto().allocate(24, 8);
    private final RunningCrc crc = new RunningCrc();
    private long folded;
    /** Whether the program said its next send or contribution legitimately differs between the twins. */
    private boolean skipNext;

    public SendDigest(boolean comparing, Corruption corruption) {
        this.comparing = comparing;
        this.corruption = corruption;
    }

    /** {@code FTHP_SDC}: {@code off} disables the comparison (fthp-run's --sdc off); on by default with a twin. */
    public static final String MODE_ENV = "FTHP_SDC";

    /**
     * This process's digest: comparing when it has a twin and the comparison is on, injecting when
     * {@code --corrupt} names it (in the first run only, like --kill: a restart must not meet it again); null when
     * neither ({@code calls} counts the program's MPI calls).
     */
    public static SendDigest forProcess(int nativeRank, boolean hasTwin, boolean firstRun,
                                        java.util.function.LongSupplier calls) {
        boolean comparing = hasTwin && !"off".equals(System.getenv(MODE_ENV));
        Corruption corruption = !firstRun ? null : Corruption.forRank(nativeRank, System.getenv(Corruption.ENV),
                System.getenv(Corruption.SEED_ENV), calls);
        return comparing || corruption != null ? new SendDigest(comparing, corruption) : null;
    }

    /**
     * The digest after a rollback in place: hashing from nothing again (the twins may have unwound at different
     * sends), comparing if the copy has a twin in the new layout (a spare that restored its replica is one) and the
     * comparison is not off, as at a start, the injection kept (it fires once); null when neither.
     */
    public static SendDigest restarted(SendDigest was, boolean hasTwin) {
        boolean comparing = hasTwin && !"off".equals(System.getenv(MODE_ENV));
        Corruption corruption = was == null ? null : was.corruption;
        return comparing || corruption != null ? new SendDigest(comparing, corruption) : null;
    }

    /** The corruption injected into this process, or null. */
    public Corruption corruption() {
        return corruption;
    }

    /** At MPI_Init, before the program's first call; null: nothing to do. */
    public static void install(SendDigest digest) {
        active = digest;
    }

    public static SendDigest active() {
        return active;
    }

    public boolean comparing() {
        return comparing;
    }

    /** The hash so far: the CRC32C of every envelope and payload folded. */
    public long value() {
        return crc.value();
    }

    /** Sends and contributions folded so far. */
    public long count() {
        return folded;
    }

    /** The program's next send or contribution is not compared (a copy's own clock, host name...). */
    public void skipNext() {
        skipNext = true;
    }

    public void pollCorruption() {
        if (corruption != null) {
            corruption.poll();
        }
    }

    /**
     * A program-level send: {@code len} payload bytes packed at {@code off} of {@code payload} (before any native
     * send of them starts), to {@code dest} of communicator {@code commId} with {@code tag}.
     */
    public void sent(int commId, int dest, int tag, MemorySegment payload, long off, long len) {
        beforeSend(payload, off, len);
        fold(commId, dest, tag, payload, off, len);
    }

    /**
     * The first half of {@link #sent}, for a send that folds after its native sends started: the injection, which
     * must touch the bytes before anyone reads them.
     */
    public void beforeSend(MemorySegment payload, long off, long len) {
        if (corruption != null) {
            corruption.poll();
            corruption.flipPayload(payload, off, len);
        }
    }

    /**
     * The second half of {@link #sent}: the fold. A large payload is folded while its receivers copy it (the
     * bytes no longer change once packed), so the hash runs beside the transfer instead of before it.
     */
    public void fold(int commId, int dest, int tag, MemorySegment payload, long off, long len) {
        if (!comparing || skipped()) {
            return;
        }
        envelope.set(ValueLayout.JAVA_INT, 0, commId);
        envelope.set(ValueLayout.JAVA_INT, 4, dest);
        envelope.set(ValueLayout.JAVA_INT, 8, tag);
        envelope.set(ValueLayout.JAVA_LONG, 16, len);
        crc.update(envelope, 0, 24);
        crc.update(payload, off, len);
        folded++;
    }

    /** A contribution to a collective: {@code len} bytes packed at {@code off} of {@code seg}. */
    public void contributed(MemorySegment seg, long off, long len) {
        if (corruption != null) {
            corruption.poll();
        }
        if (!comparing || skipped()) {
            return;
        }
        envelope.set(ValueLayout.JAVA_LONG, 16, len);
        crc.update(envelope, 16, 8);
        crc.update(seg, off, len);
        folded++;
    }

    private boolean skipped() {
        if (skipNext) {
            skipNext = false;
            return true;
        }
        return false;
    }
}
