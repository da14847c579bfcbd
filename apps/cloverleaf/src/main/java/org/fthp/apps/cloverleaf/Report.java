package org.fthp.apps.cloverleaf;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where rank 0 writes: the {@code clover.out} log (everything, as the reference writes it) and the
 * console (the step lines, field summaries and final check). Other ranks write nothing. An optional
 * summary file gets every field summary at full precision, for comparing runs.
 */
final class Report implements AutoCloseable {

    private final boolean boss;
    private final PrintWriter out;
    private final PrintStream console;
    private final PrintWriter summaryFile;

    Report(boolean boss, Path outFile, Path summaryPath, PrintStream console) throws IOException {
        this.boss = boss;
        this.console = console;
        if (boss) {
            BufferedWriter w = Files.newBufferedWriter(outFile);
            out = new PrintWriter(w);
            summaryFile = summaryPath == null ? null : new PrintWriter(Files.newBufferedWriter(summaryPath));
        } else {
            out = null;
            summaryFile = null;
        }
    }

    boolean boss() {
        return boss;
    }

    /** A line for clover.out only. */
    void log(String line) {
        if (boss) {
            out.println(line);
        }
    }

    /** A line for clover.out and the console. */
    void both(String line) {
        if (boss) {
            out.println(line);
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

    void flush() {
        if (boss) {
            out.flush();
            console.flush();
            if (summaryFile != null) {
                summaryFile.flush();
            }
        }
    }

    @Override
    public void close() {
        if (boss) {
            out.close();
            if (summaryFile != null) {
                summaryFile.close();
            }
            console.flush();
        }
    }
}
