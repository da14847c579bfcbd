package org.fthp.replication.runtime;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The status of the program's {@code System.exit}, which a shutdown hook is not told. The JDK logs every
 * {@code Runtime.exit(status)} to the system logger {@code java.lang.Runtime} at DEBUG, with a throwable whose
 * stack is the caller's (JDK 21+, documented on {@link Runtime#exit}); a handler on that logger keeps the status
 * when the call came from {@code Runtime.exit}, and not when a signal handler ended the JVM (the same log, from
 * the JDK's own termination handler).
 */
final class RuntimeExitLog extends Handler {

    record Exit(int status) {}

    private static final String LOGGER = "java.lang.Runtime";
    private static final String PREFIX = "Runtime.exit(";

    /** Kept here: the logging framework holds its loggers weakly, and the level set on this one must stay. */
    private final Logger logger;
    private volatile Exit programExit;

    private RuntimeExitLog(Logger logger) {
        this.logger = logger;
    }

    static RuntimeExitLog attach() {
        Logger logger = Logger.getLogger(LOGGER);
        RuntimeExitLog log = new RuntimeExitLog(logger);
        log.setLevel(Level.ALL);
        logger.addHandler(log);
        if (!logger.isLoggable(Level.FINE)) {
            logger.setLevel(Level.FINE);
        }
        return log;
    }

    /** The program's own System.exit (or Runtime.exit), if it called it; null otherwise. */
    Exit programExit() {
        return programExit;
    }

    @Override
    public void publish(LogRecord record) {
        Throwable call = record.getThrown();
        String message = call == null ? null : call.getMessage();
        if (message == null || !message.startsWith(PREFIX) || !message.endsWith(")")) {
            return;
        }
        for (StackTraceElement frame : call.getStackTrace()) {
            if (frame.getClassName().equals("java.lang.Runtime") && frame.getMethodName().equals("exit")) {
                try {
                    programExit = new Exit(Integer.parseInt(message.substring(PREFIX.length(), message.length() - 1)));
                } catch (NumberFormatException e) {
                    // not the JDK's format: the status stays unknown
                }
                return;
            }
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
