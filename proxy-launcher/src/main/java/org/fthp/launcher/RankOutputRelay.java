package org.fthp.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

/**
 * Prints the output files of a replicated job's ranks on fthp-run's own
 * stdout and stderr, whole lines at a time, as they grow.
 *
 * <p>The ranks write their output to files rather than to mpirun because a
 * file's length survives its writer: after a promotion the replica continues
 * exactly where its dead twin's last write ended (see the replication
 * module's {@code RankOutputFiles}). Whole lines per write keep one rank's
 * line from being cut by another's, as mpirun's own forwarding does.
 *
 * <p>When a difference between twins can roll the job back (replicas, twin comparison on, checkpoints wanted), a
 * replicated rank's output is printed only up to its positions at the last committed epoch ({@code verified-<rank>},
 * written by the copy that prints): a relaunch then truncates its files at the restart epoch's positions
 * ({@link #truncateToEpoch}), a rollback in place has the writing copy cut them there, and the rerun prints from that
 * byte, so a corrupted copy's lines never reach the terminal. At the end everything left is printed.
 */
final class RankOutputRelay implements AutoCloseable {

    /** Read by the ranks: the directory holding {@code stdout-<rank>} and {@code stderr-<rank>}. */
    static final String DIR_ENV = "FTHP_OUTPUT_DIR";

    /** {@code verified-<rank>}: two longs, the rank's stdout and stderr positions at the last committed epoch. */
    static final String VERIFIED = "verified-";

    /**
     * A rollback after a difference between twins to {@code epoch} (-1: the beginning): the output files of ranks
     * below {@code verifiedRanks} lose what they hold past that epoch's positions (never printed: the relay prints
     * only up to a committed epoch's); the rerun prints from there.
     */
    static void truncateToEpoch(Path dir, int verifiedRanks, long epoch) {
        for (int r = 0; r < verifiedRanks; r++) {
            long[] at = positionsAt(dir.resolve("positions-" + r), epoch);
            for (int s = 0; s < 2; s++) {
                Path f = dir.resolve((s == 0 ? "stdout-" : "stderr-") + r);
                try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    if (c.size() > at[s]) {
                        c.truncate(at[s]);
                    }
                } catch (IOException e) {
                    System.err.println("fthp-run: cannot roll back " + f + ": " + e.getMessage());
                }
            }
        }
    }

    /** The positions {@code positions-<rank>} lists for {@code epoch}; zeros for none (the beginning). */
    static long[] positionsAt(Path file, long epoch) {
        try {
            for (String line : Files.readAllLines(file)) {
                String[] v = line.trim().split(" ");
                if (v.length == 3 && Long.parseLong(v[0]) == epoch) {
                    return new long[] {Long.parseLong(v[1]), Long.parseLong(v[2])};
                }
            }
        } catch (IOException | NumberFormatException e) {
            // none: from the beginning
        }
        return new long[2];
    }

    /** The positions in a {@code verified-<rank>} file; zeros when there is none yet. */
    static long[] verified(Path file) {
        try {
            byte[] b = Files.readAllBytes(file);
            if (b.length >= 16) {
                ByteBuffer v = ByteBuffer.wrap(b);
                return new long[] {v.getLong(0), v.getLong(8)};
            }
        } catch (IOException e) {
            // none yet
        }
        return new long[2];
    }

    /** A line longer than this (a progress bar without newlines, say) is printed in pieces. */
    private static final int MAX_PENDING = 64 << 10;
    /** Backstop for a missed file-change event. */
    private static final long IDLE_MILLIS = 50;

    /** Reads per file and round while the relay runs, so one busy rank does not hold up the others. */
    private static final int READS_PER_ROUND = 16;

    private final List<Tail> tails;
    private final WatchService changes;
    private final Thread relay;
    /** Prints what is left if fthp-run is interrupted (^C) before it closes the relay itself. */
    private final Thread atShutdown;
    private final ByteBuffer chunk = ByteBuffer.allocate(64 << 10);
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private RankOutputRelay(List<Tail> tails, WatchService changes) {
        this.tails = tails;
        this.changes = changes;
        this.relay = new Thread(this::relayUntilClosed, "fthp-run-output");
        relay.setDaemon(true);
        this.atShutdown = new Thread(this::finish, "fthp-run-output-at-exit");
    }

    /** Creates the files of logical ranks 0..ranks-1 in {@code dir} and starts relaying them. */
    static RankOutputRelay start(Path dir, int ranks, OutputStream stdout, OutputStream stderr) throws LaunchException {
        return start(dir, ranks, 0, stdout, stderr, null, false);
    }

    /**
     * As above, recording how far each file is printed in {@code printed} (the checkpoint directory's); with
     * {@code continuing} the files are an earlier job's, kept: each is relayed from where that job's printing
     * stopped (what it wrote but never printed included), and a resumed rank appends after what they hold.
     */
    static RankOutputRelay start(Path dir, int ranks, OutputStream stdout, OutputStream stderr,
                                 PrintedPositions printed, boolean continuing) throws LaunchException {
        return start(dir, ranks, 0, stdout, stderr, printed, continuing);
    }

    /** As above; ranks below {@code verifiedRanks} print only what their twins agreed on, until the end. */
    static RankOutputRelay start(Path dir, int ranks, int verifiedRanks, OutputStream stdout, OutputStream stderr,
                                 PrintedPositions printed, boolean continuing) throws LaunchException {
        List<Tail> tails = new ArrayList<>();
        try {
            for (int r = 0; r < ranks; r++) {
                Path verified = r < verifiedRanks ? dir.resolve(VERIFIED + r) : null;
                tails.add(new Tail(dir.resolve("stdout-" + r), stdout, verified, 0, printed, 2 * r, continuing));
                tails.add(new Tail(dir.resolve("stderr-" + r), stderr, verified, 1, printed, 2 * r + 1,
                        continuing));
            }
            WatchService changes = dir.getFileSystem().newWatchService();
            dir.register(changes, ENTRY_MODIFY);
            RankOutputRelay relay = new RankOutputRelay(tails, changes);
            relay.relay.start();
            Runtime.getRuntime().addShutdownHook(relay.atShutdown);
            return relay;
        } catch (IOException e) {
            for (Tail t : tails) {
                t.closeQuietly();
            }
            throw LaunchException.environment("cannot set up the ranks' output files in " + dir + ": " + e.getMessage());
        }
    }

    private void relayUntilClosed() {
        try {
            while (true) {
                WatchKey key = changes.poll(IDLE_MILLIS, TimeUnit.MILLISECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
                for (Tail t : tails) {
                    t.drain(chunk, READS_PER_ROUND);
                }
            }
        } catch (ClosedWatchServiceException | InterruptedException e) {
            // closing: the final drain is the closer's
        }
    }

    /** Prints everything still unprinted, a last unterminated line included. Call once the ranks are gone. */
    @Override
    public void close() {
        finish();
        try {
            Runtime.getRuntime().removeShutdownHook(atShutdown);
        } catch (IllegalStateException e) {
            // shutting down already: the hook has run finish(), which did nothing the second time
        }
    }

    private void finish() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            changes.close();
        } catch (IOException e) {
            // nothing to release then
        }
        // the relay thread must be out of every Tail before this thread reads them
        boolean interrupted = false;
        while (relay.isAlive()) {
            try {
                relay.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        // whole lines of every rank first, so an unterminated last line cannot glue itself to another's
        for (Tail t : tails) {
            t.ungate();
            t.drain(chunk, Integer.MAX_VALUE);
        }
        for (Tail t : tails) {
            t.flushPending();
            t.closeQuietly();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** One file: what was read of it, and the line begun but not yet ended. */
    private static final class Tail {
        private final Path path;
        private final FileChannel file;
        private final OutputStream sink;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        /** The rank's verified positions, or null: printed as written. */
        private volatile Path verified;
        private final int stream;
        /** Where printing is recorded (null: nowhere), and this file's index there. */
        private final PrintedPositions printed;
        private final int index;
        /** The file's bytes before this offset are printed. */
        private long emittedTo;
        private boolean failed;

        Tail(Path path, OutputStream sink, Path verified, int stream, PrintedPositions printed, int index,
             boolean continuing) throws IOException {
            this.path = path;
            this.verified = verified;
            this.stream = stream;
            this.printed = printed;
            this.index = index;
            long from = 0;
            if (continuing && Files.exists(path)) {
                from = printed.get(index);
            } else {
                // created here, before any rank starts: the ranks only append to it (and refuse to start without it)
                Files.createFile(path);
                from = continuing ? printed.get(index) : 0;
            }
            if (from > 0 && Files.size(path) < from) {
                // printed further than the file holds (it was cut since): a resumed rank appends after that point
                try (java.io.RandomAccessFile grow = new java.io.RandomAccessFile(path.toFile(), "rw")) {
                    grow.setLength(from);
                }
            }
            this.file = FileChannel.open(path, StandardOpenOption.READ);
            file.position(from);
            this.emittedTo = from;
            this.sink = sink;
        }

        /** Prints the whole lines written since the last call, reading at most {@code reads} chunks. */
        void drain(ByteBuffer chunk, int reads) {
            if (failed) {
                return;
            }
            try {
                Path gate = verified;
                long limit = gate == null ? Long.MAX_VALUE : verified(gate)[stream];
                for (int r = 0; r < reads; r++) {
                    chunk.clear();
                    long room = limit - file.position();
                    if (room <= 0) {
                        break;
                    }
                    if (room < chunk.capacity()) {
                        chunk.limit((int) room);
                    }
                    if (file.read(chunk) <= 0) {
                        break;
                    }
                    take(chunk.array(), chunk.position());
                }
            } catch (IOException e) {
                fail(e);
            }
        }

        /** The job is over: whatever the rank wrote is printed. */
        void ungate() {
            verified = null;
        }

        /** The rank is gone: its unterminated last line, as it is. */
        void flushPending() {
            if (failed || pending.size() == 0) {
                return;
            }
            try {
                emit();
            } catch (IOException e) {
                fail(e);
            }
        }

        private void fail(IOException e) {
            failed = true;
            System.err.println("fthp-run: stopped relaying " + path + ": " + e.getMessage());
        }

        private void take(byte[] b, int len) throws IOException {
            int lastEnd = -1;
            for (int i = len - 1; i >= 0; i--) {
                if (b[i] == '\n') {
                    lastEnd = i;
                    break;
                }
            }
            pending.write(b, 0, lastEnd + 1);
            if (lastEnd >= 0) {
                emit();
            }
            pending.write(b, lastEnd + 1, len - lastEnd - 1);
            if (pending.size() > MAX_PENDING) {
                emit();
            }
        }

        private void emit() throws IOException {
            pending.writeTo(sink);
            sink.flush();
            emittedTo += pending.size();
            pending.reset();
            if (printed != null) {
                printed.printed(index, emittedTo);
            }
        }

        void closeQuietly() {
            try {
                file.close();
            } catch (IOException e) {
                // read-only use; nothing lost
            }
        }
    }
}
