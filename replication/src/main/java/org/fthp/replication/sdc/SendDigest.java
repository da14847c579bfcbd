package org.fthp.replication.sdc;

import java.lang.foreign.MemorySegment;

import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;

/**
 * One copy's running hash of what it gives the rest of the job: every program-level send (its payload and its
 * envelope: communicator, destination, tag, byte count) and every contribution to a collective, in the order the
 * program makes them, once each, including the sends a replica only logs. Twins run the same program over the same
 * inputs, so their hashes agree unless one of them computed something else (docs/DESIGN.md §22). Resends after a
 * repair and the engine's own messages never pass here.
 *
 * <p>Folded into the pack into staging ({@link #packSent}, {@link #packContributed}): a dense layout is copied and
 * hashed in one pass by the fused kernel ({@link CrcKernel}) where it runs; otherwise each block of
 * {@link #PACK_BLOCK} bytes is hashed right after it is copied, while it is still in the core's cache, so the hash
 * costs its arithmetic and one read of the block in cache, not a pass over memory (a payload packed whole and
 * hashed after reads it back from memory: a large copy's stores bypass the cache). The hash is a CRC32C
 * ({@link RunningCrc}); nothing allocated.
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
    private final RunningCrc crc;
    private long folded;
    /**
     * Bytes packed between two folds: small enough that a block is still in the core's first or second level cache
     * when it is hashed (measured here: 64 KiB and 256 KiB alike).
     */
    static final long PACK_BLOCK = 64 * 1024;
    /** Whether the program said its next send or contribution legitimately differs between the twins. */
    private boolean skipNext;

    public SendDigest(boolean comparing, Corruption corruption) {
        this(comparing, corruption, new RunningCrc());
    }

    /** With the hash {@code crc} (the fused kernel's or the JDK's). */
    SendDigest(boolean comparing, Corruption corruption, RunningCrc crc) {
        this.comparing = comparing;
        this.corruption = corruption;
        this.crc = crc;
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
     * The injection alone, for a payload the sends read from the program's own memory: the flip must touch the
     * bytes before anyone reads them; the fold follows with the log's copy ({@link #packFolded}).
     */
    public void beforeSend(MemorySegment payload, long off, long len) {
        if (corruption != null) {
            corruption.poll();
            corruption.flipPayload(payload, off, len);
        }
    }

    /** The fold of a payload already packed (and flipped, if a flip was due). */
    public void fold(int commId, int dest, int tag, MemorySegment payload, long off, long len) {
        if (!comparing || skipped()) {
            return;
        }
        envelope(commId, dest, tag, len);
        crc.update(payload, off, len);
        folded++;
    }

    /**
     * A program-level send, packed and folded here: {@code count} items of {@code type} from byte {@code startByte}
     * of {@code buf} into {@code into} at {@code at}, block by block, each hashed while still in cache; a flip due
     * now goes into the packed payload first (then the whole is packed before it is hashed).
     */
    public void packSent(int commId, int dest, int tag, UserBuffer buf, long startByte, int count, TypeLayout type,
                         MemorySegment into, long at) {
        long len = count * type.size();
        if (corruption != null) {
            corruption.poll();
            if (corruption.messagePending() && len > 0) {
                Packer.pack(buf, startByte, count, type, into, at);
                sent(commId, dest, tag, into, at, len);
                return;
            }
        }
        packFolded(commId, dest, tag, buf, startByte, count, type, into, at);
    }

    /**
     * {@link #packSent} without the injection: the log's copy of a payload its sends read from the program's own
     * memory, where {@link #beforeSend} already put a flip.
     */
    public void packFolded(int commId, int dest, int tag, UserBuffer buf, long startByte, int count, TypeLayout type,
                           MemorySegment into, long at) {
        if (!comparing || skipped()) {
            Packer.pack(buf, startByte, count, type, into, at);
            return;
        }
        long len = count * type.size();
        MemorySegment memory = buf.memory();
        if (len > 0 && crc.fusesCopy() && type.isDense() && memory != null) {
            crc.copyAndUpdateSent(commId, dest, tag, len, memory, buf.offsetOf(startByte), into, at, len);
        } else {
            envelope(commId, dest, tag, len);
            packAndHash(buf, startByte, count, type, into, at);
        }
        folded++;
    }

    /** A contribution to a collective, packed and folded here as in {@link #packSent}; {@code buf} null: none. */
    public void packContributed(UserBuffer buf, long startByte, int count, TypeLayout type, MemorySegment into,
                                long at) {
        if (corruption != null) {
            corruption.poll();
        }
        if (!comparing || skipped()) {
            if (buf != null) {
                Packer.pack(buf, startByte, count, type, into, at);
            }
            return;
        }
        contribution(buf == null ? 0 : count * type.size());
        if (buf != null) {
            packAndHash(buf, startByte, count, type, into, at);
        }
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
        contribution(len);
        crc.update(seg, off, len);
        folded++;
    }

    /** A send's envelope: communicator, destination, tag, four zero bytes, byte count (native order). */
    private void envelope(int commId, int dest, int tag, long len) {
        crc.updateEnvelope(commId, dest, tag, len);
    }

    /** A contribution's envelope: its length alone. */
    private void contribution(long len) {
        crc.updateLong(len);
    }

    /**
     * Packs and hashes: a dense layout in one pass of the fused kernel; otherwise whole items about a block at a
     * time, each block hashed right after its copy.
     */
    private void packAndHash(UserBuffer buf, long startByte, int count, TypeLayout type, MemorySegment into,
                             long at) {
        long size = type.size();
        if (count == 0 || size == 0) {
            return;
        }
        MemorySegment memory = buf.memory();
        if (crc.fusesCopy() && type.isDense() && memory != null) {
            crc.copyAndUpdate(memory, buf.offsetOf(startByte), into, at, count * size);
            return;
        }
        int perBlock = (int) Math.max(1, PACK_BLOCK / size);
        for (long done = 0; done < count; done += perBlock) {
            int items = (int) Math.min(perBlock, count - done);
            long to = at + done * size;
            Packer.pack(buf, startByte + done * type.extent(), items, type, into, to);
            crc.update(into, to, items * size);
        }
    }

    private boolean skipped() {
        if (skipNext) {
            skipNext = false;
            return true;
        }
        return false;
    }
}
