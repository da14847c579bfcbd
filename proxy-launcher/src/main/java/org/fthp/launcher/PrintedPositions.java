package org.fthp.launcher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * How far fthp-run has printed each of the ranks' output files, kept beside them in the checkpoint directory, so
 * that a later job resuming from that directory prints from exactly there: every job's stdout, concatenated, is
 * one run's. One fixed-width record per file, {@code stdout-0} first, then {@code stderr-0}, {@code stdout-1}...,
 * rewritten in place after each whole line printed (a plain write: it survives fthp-run's SIGKILL, the page cache
 * holds it; only the machine's crash can lose the last lines' worth, which are then printed again).
 * <pre>
 * stdout-0                   00000000000000001234
 * </pre>
 */
final class PrintedPositions implements AutoCloseable {
    static final String FILE = "printed";
    private static final int NAME_WIDTH = 26;
    private static final int RECORD = NAME_WIDTH + 1 + 20 + 1;

    private final FileChannel file;
    private final long[] positions;
    private final ByteBuffer record = ByteBuffer.allocate(RECORD);

    private PrintedPositions(FileChannel file, long[] positions) {
        this.file = file;
        this.positions = positions;
    }

    /** The names of the files, in record order, for {@code ranks} ranks. */
    static List<String> names(int ranks) {
        java.util.ArrayList<String> names = new java.util.ArrayList<>(2 * ranks);
        for (int r = 0; r < ranks; r++) {
            names.add("stdout-" + r);
            names.add("stderr-" + r);
        }
        return names;
    }

    /** Opens (or creates, all at 0) the positions of {@code ranks} ranks' files in {@code dir}. */
    static PrintedPositions open(Path dir, int ranks) throws IOException {
        List<String> names = names(ranks);
        long[] at = read(dir.resolve(FILE), names);
        FileChannel ch = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        PrintedPositions p = new PrintedPositions(ch, at);
        for (int i = 0; i < names.size(); i++) {
            p.write(i, at[i]);
        }
        return p;
    }

    private static long[] read(Path path, List<String> names) throws IOException {
        long[] at = new long[names.size()];
        String text;
        try {
            text = Files.readString(path, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return at;
        }
        for (String line : text.split("\n")) {
            String[] f = line.trim().split(" +");
            if (f.length == 2) {
                int i = names.indexOf(f[0]);
                if (i >= 0) {
                    try {
                        at[i] = Long.parseLong(f[1]);
                    } catch (NumberFormatException e) {
                        throw new IOException(path + ": unreadable line '" + line + "'");
                    }
                }
            }
        }
        return at;
    }

    /** Where file {@code index} (in {@link #names} order) was printed up to. */
    long get(int index) {
        return positions[index];
    }

    /** File {@code index} is printed up to {@code position}. */
    synchronized void printed(int index, long position) {
        if (position == positions[index]) {
            return;
        }
        positions[index] = position;
        try {
            write(index, position);
        } catch (IOException e) {
            // the next job would print these lines again; this one goes on
            System.err.println("fthp-run: cannot record the printed output position: " + e.getMessage());
        }
    }

    private void write(int index, long position) throws IOException {
        String name = names(index / 2 + 1).get(index);
        record.clear();
        record.put(String.format("%-" + NAME_WIDTH + "s %020d\n", name, position).getBytes(StandardCharsets.US_ASCII));
        record.flip();
        long at = (long) index * RECORD;
        while (record.hasRemaining()) {
            at += file.write(record, at);
        }
    }

    @Override
    public void close() throws IOException {
        file.force(true);
        file.close();
    }
}
