package org.fthp.coordinator.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.netty.channel.EventLoopGroup;

/**
 * INFO lines about a failure, written a moment after it instead of at once. A coordinator runs without an
 * ahead-of-time cache and says nothing at INFO before a job's first failure, so a failure's line is its JVM's first:
 * java.util.logging then sets up its console handler and formatter (dates, locale data, message formats), tens of
 * milliseconds of CPU, just when the survivors repair on the same cores, taking a large share of the repair's time.
 * Each line keeps the time and place it was made at; held lines are written at {@link #flush} (close) at the latest.
 */
final class DeferredLog {

    /** Long enough for a repair to be over (tens of milliseconds), short enough to read as prompt. */
    static final long DELAY_MILLIS = 500;

    private final Logger log;
    private final String sourceClass;
    private final EventLoopGroup timer;
    private final List<LogRecord> held = new ArrayList<>();

    DeferredLog(Logger log, Class<?> source, EventLoopGroup timer) {
        this.log = log;
        this.sourceClass = source.getName();
        this.timer = timer;
    }

    /** An INFO line ({@link java.text.MessageFormat} pattern) from {@code method}, written after the delay. */
    void info(String method, String pattern, Object... params) {
        if (!log.isLoggable(Level.INFO)) {
            return;
        }
        LogRecord line = new LogRecord(Level.INFO, pattern);
        line.setParameters(params);
        line.setLoggerName(log.getName());
        line.setSourceClassName(sourceClass);
        line.setSourceMethodName(method);
        synchronized (held) {
            held.add(line);
        }
        try {
            timer.schedule(this::flush, DELAY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            flush();
        }
    }

    /** Writes every held line now. */
    void flush() {
        List<LogRecord> lines;
        synchronized (held) {
            lines = List.copyOf(held);
            held.clear();
        }
        for (LogRecord line : lines) {
            log.log(line);
        }
    }
}
