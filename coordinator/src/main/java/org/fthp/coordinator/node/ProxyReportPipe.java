package org.fthp.coordinator.node;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The named pipe through which the launcher's proxy library (preloaded into mpirun) tells this node coordinator
 * which children died by a signal: one {@code pid\n} line per death.
 *
 * <p>A FIFO rather than a socket or a polled file: the C side stays a plain non-blocking open + write, and a
 * dedicated daemon thread blocks in read, so a report is handled the moment it is written, with no timer. The
 * pipe lives in a fresh directory only this user can enter (0700, the FIFO 0600): anyone able to write to it
 * could fail processes, the same trust as the job secret in this user's environment.
 *
 * <p>The reader opens the FIFO read-write: on Linux that does not block waiting for a writer, and since this
 * process itself holds a write end the read never sees end-of-file between two reports. Lines of up to
 * PIPE_BUF bytes are written atomically, so reports from concurrent writers never interleave.
 */
public final class ProxyReportPipe implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ProxyReportPipe.class.getName());
    /** A pid is at most 7 digits on Linux; anything much longer is not a report. */
    private static final int MAX_LINE = 32;

    private final Path directory;
    private final Path fifo;
    private final FileChannel channel;
    private final Thread reader;
    private volatile boolean closed;
    /** Whether close() removes the directory too: not when it was there before (fthp-run's job directory). */
    private volatile boolean removeDirectory = true;

    private ProxyReportPipe(Path directory, Path fifo, FileChannel channel, LongConsumer onPid, String name) {
        this.directory = directory;
        this.fifo = fifo;
        this.channel = channel;
        this.reader = Thread.ofPlatform().daemon().name(name).unstarted(() -> readLoop(onPid));
    }

    /** Creates the FIFO in a new private temporary directory and starts reading; {@code onPid} runs on the reader. */
    public static ProxyReportPipe open(LongConsumer onPid, String threadName) throws IOException {
        Path directory = Files.createTempDirectory("fthp-coordinator-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        return open(directory, directory.resolve("proxy-reports"), onPid, threadName);
    }

    /**
     * Creates the FIFO {@code directory/name}, making the directory (0700) if it does not exist yet: on a
     * multi-host job the launch agent of every host's orted writes to a path fthp-run chose for the job, and
     * this host's coordinator is the one that makes it there. A directory that exists must be this user's
     * and private, or anyone could fail this job's processes by writing pids to it.
     */
    public static ProxyReportPipe openAt(Path directory, String name, LongConsumer onPid, String threadName)
            throws IOException {
        boolean made = !Files.isDirectory(directory);
        if (made) {
            Files.createDirectories(directory,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = Files.getPosixFilePermissions(directory);
        if (perms.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
            throw new IOException("report directory " + directory + " is open to other users ("
                    + PosixFilePermissions.toString(perms) + ")");
        }
        ProxyReportPipe pipe = open(directory, directory.resolve(name), onPid, threadName);
        pipe.removeDirectory = made;
        return pipe;
    }

    private static ProxyReportPipe open(Path directory, Path fifo, LongConsumer onPid, String threadName)
            throws IOException {
        FileChannel channel;
        try {
            Mkfifo.create(fifo, 0600);
            channel = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(fifo);
            Files.deleteIfExists(directory);
            throw e;
        }
        ProxyReportPipe pipe = new ProxyReportPipe(directory, fifo, channel, onPid, threadName);
        pipe.reader.start();
        return pipe;
    }

    public Path path() {
        return fifo;
    }

    private void readLoop(LongConsumer onPid) {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        StringBuilder line = new StringBuilder();
        try {
            while (!closed) {
                buffer.clear();
                int n = channel.read(buffer);
                for (int i = 0; i < n; i++) {
                    char c = (char) buffer.get(i);
                    if (c == '\n') {
                        deliver(line.toString(), onPid);
                        line.setLength(0);
                    } else if (line.length() <= MAX_LINE) {
                        line.append(c);
                    }
                }
            }
        } catch (ClosedChannelException e) {
            // close(), directly or while the read was blocked (AsynchronousCloseException): the normal way out
        } catch (IOException e) {
            if (!closed) {
                LOG.log(Level.SEVERE, "proxy report pipe " + fifo + " failed; reports are no longer read", e);
            }
        }
    }

    private static void deliver(String line, LongConsumer onPid) {
        long pid;
        try {
            pid = Long.parseLong(line.strip());
        } catch (NumberFormatException e) {
            LOG.log(Level.WARNING, "proxy report pipe: ignoring a line that is not a pid: {0}", line);
            return;
        }
        if (pid <= 0) {
            LOG.log(Level.WARNING, "proxy report pipe: ignoring pid {0}", pid);
            return;
        }
        try {
            onPid.accept(pid);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "proxy report pipe: handling pid " + pid + " failed", e);
        }
    }

    /** Stops the reader (closing the channel wakes its blocked read) and removes the FIFO and its directory. */
    @Override
    public void close() {
        closed = true;
        try {
            channel.close();
            reader.join(1000);
            Files.deleteIfExists(fifo);
            if (removeDirectory) {
                Files.deleteIfExists(directory);
            }
        } catch (java.nio.file.DirectoryNotEmptyException e) {
            // a shared job directory (openAt) that holds other files too: not ours to empty
        } catch (IOException e) {
            LOG.log(Level.WARNING, "proxy report pipe: cannot remove " + fifo, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
