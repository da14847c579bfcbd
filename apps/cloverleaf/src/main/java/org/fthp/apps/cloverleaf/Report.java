package org.fthp.apps.cloverleaf;

import java.io.BufferedWriter;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.fthp.checkpoint.api.Checkpointable;

/**
 * Where rank 0 writes: the {@code clover.out} log (everything, as the reference writes it) and the
 * console (the step lines, field summaries and final check). Other ranks write nothing. An optional
 * summary file gets every field summary at full precision, for comparing runs.
 *
 * <p>Checkpointed as the files' lengths: a run that resumes from a checkpoint writes nothing to the
 * files until it has recovered, then cuts them back to those lengths and appends from there, so
 * they read like one run (the console is positioned the same way by fthp-run).
 */
final class Report implements AutoCloseable, Checkpointable {

    private final boolean boss;
    private final Path outFile;
    private final Path summaryPath;
    private final PrintStream console;
    /** Null on other ranks, and on rank 0 of a resuming run until it has recovered. */
    private PrintWriter out;
    private PrintWriter summaryFile;

    /**
     * @param resuming this run resumes from a checkpoint: the files are opened by {@link #read},
     *                 what is written before that is what the run wrote before its checkpoint
     */
    Report(boolean boss, Path outFile, Path summaryPath, PrintStream console, boolean resuming) throws IOException {
        this.boss = boss;
        this.outFile = outFile;
        this.summaryPath = summaryPath;
        this.console = console;
        if (boss && !resuming) {
            out = new PrintWriter(Files.newBufferedWriter(outFile));
            summaryFile = summaryPath == null ? null : new PrintWriter(Files.newBufferedWriter(summaryPath));
        } else if (boss) {
            // fail now, as a first run would, if the files cannot be written
            checkWritable(outFile);
            if (summaryPath != null) {
                checkWritable(summaryPath);
            }
        }
    }

    private static void checkWritable(Path file) throws IOException {
        Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
    }

    @Override
    public void write(DataOutput data) throws IOException {
        flush();
        data.writeLong(boss ? Files.size(outFile) : 0);
        data.writeLong(boss && summaryPath != null ? Files.size(summaryPath) : -1);
    }

    @Override
    public void read(DataInput data) throws IOException {
        long outLength = data.readLong();
        long summaryLength = data.readLong();
        if (!boss) {
            return;
        }
        console.flush();
        close();
        out = cutTo(outFile, outLength);
        if (summaryPath != null) {
            if (summaryLength < 0) {
                throw new IOException("the checkpoint was taken without a summary file; cannot resume "
                        + summaryPath);
            }
            summaryFile = cutTo(summaryPath, summaryLength);
        }
    }

    /**
     * The file as it stood at the checkpoint, to write on from there (what the run wrote after it is
     * written again). Positioned, not appending: a replica of rank 0 writes the same bytes at the same
     * offsets, where appends of the two would interleave.
     */
    private static PrintWriter cutTo(Path file, long length) throws IOException {
        long now = Files.exists(file) ? Files.size(file) : 0;
        if (now < length) {
            throw new IOException(file + " holds " + now + " bytes, fewer than the " + length
                    + " it held at the checkpoint: cannot resume it");
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE);
        ch.truncate(length);
        ch.position(length);
        return new PrintWriter(new BufferedWriter(Channels.newWriter(ch, StandardCharsets.UTF_8)));
    }

    boolean boss() {
        return boss;
    }

    /** A line for clover.out only. */
    void log(String line) {
        if (out != null) {
            out.println(line);
        }
    }

    /** A line for clover.out and the console. */
    void both(String line) {
        if (boss) {
            if (out != null) {
                out.println(line);
            }
            console.println(line);
        }
    }

    /** A line for the console only. */
    void console(String line) {
        if (boss) {
            console.println(line);
        }
    }

    void summaryFull(int step, double time, double[] values) {
        if (summaryFile != null) {
            StringBuilder b = new StringBuilder().append(step).append(' ').append(Double.toString(time));
            for (double v : values) {
                b.append(' ').append(String.format(java.util.Locale.ROOT, "%.17e", v));
            }
            summaryFile.println(b);
        }
    }

    /** What the console buffers, to stdout (not the files: they are flushed at summaries and checkpoints). */
    void flushConsole() {
        if (boss) {
            console.flush();
        }
    }

    void flush() {
        if (boss) {
            if (out != null) {
                out.flush();
            }
            console.flush();
            if (summaryFile != null) {
                summaryFile.flush();
            }
        }
    }

    @Override
    public void close() {
        if (boss) {
            if (out != null) {
                out.close();
            }
            if (summaryFile != null) {
                summaryFile.close();
            }
            console.flush();
        }
    }
}
