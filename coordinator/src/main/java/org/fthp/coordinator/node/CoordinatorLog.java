package org.fthp.coordinator.node;

import java.io.PrintStream;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * How a coordinator process speaks to the user: one line per event on stderr, {@code fthp-coordinator: ...},
 * as fthp-run's own lines are, instead of java.util.logging's two-line default (a date and the Java method, then
 * the level and the message). A record that carries an exception ends with the exception's own one-line text.
 */
public final class CoordinatorLog {

    /** What every line starts with. */
    public static final String PREFIX = "fthp-coordinator: ";

    private CoordinatorLog() {}

    /** Replaces the root logger's handlers with one that writes {@link #line}s to {@code err}. */
    public static void install(PrintStream err) {
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        root.setLevel(Level.INFO);
        root.addHandler(new LineHandler(err));
        // the message formats load now, not at the job's first failure (when the survivors repair on these cores)
        LogRecord warm = new LogRecord(Level.INFO, "{0} {1}");
        warm.setParameters(new Object[] {0, "warm-up"});
        line(warm);
    }

    /** The line of one record, without its line break. */
    public static String line(LogRecord record) {
        return PREFIX + LINE.formatMessage(record) + (record.getThrown() == null ? "" : ": " + record.getThrown());
    }

    /** Only {@link Formatter#formatMessage}: the record's pattern with its parameters. */
    private static final Formatter LINE = new Formatter() {
        @Override
        public String format(LogRecord record) {
            return line(record) + System.lineSeparator();
        }
    };

    private static final class LineHandler extends Handler {
        private final PrintStream err;

        LineHandler(PrintStream err) {
            this.err = err;
            setFormatter(LINE);
            setLevel(Level.ALL);
        }

        @Override
        public void publish(LogRecord record) {
            if (isLoggable(record)) {
                // one print of the whole line: lines from several threads never mix
                err.print(getFormatter().format(record));
                err.flush();
            }
        }

        @Override
        public void flush() {
            err.flush();
        }

        @Override
        public void close() {
            flush();
        }
    }
}
