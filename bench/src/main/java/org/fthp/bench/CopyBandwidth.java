package org.fthp.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.CRC32C;

import org.fthp.checkpoint.piece.PieceWriter;
import org.fthp.coordinator.checkpoint.PieceBytes;
import org.fthp.coordinator.checkpoint.PieceDirectory;

/**
 * What this machine's memory does for one thread, as the yardstick of a checkpoint's cost (bench/checkpoint.sh
 * runs it beside the MPI runs; not a test): {@code java CopyBandwidth MB REPS} prints, in MB/s (10^6 bytes/s),
 * medians of REPS after a warm-up:
 * <pre>
 * memcpy MB/s     System.arraycopy of MB MiB of doubles into another array (both touched before)
 * crc32c MB/s     CRC32C over them
 * encode-heap     a piece of them encoded into a heap buffer already touched
 * encode-shm      a piece encoded into a new shared-memory file (what a checkpoint does: pages come as written)
 * </pre>
 */
public final class CopyBandwidth {
    private CopyBandwidth() {
    }

    public static void main(String[] args) throws IOException {
        int mb = Integer.parseInt(args[0]);
        int reps = Integer.parseInt(args[1]);
        double[] src = new double[mb << 17];
        double[] dst = new double[src.length];
        Arrays.fill(src, 1.5);
        Arrays.fill(dst, 2.5);
        long bytes = (long) src.length * 8;
        ByteBuffer heap = ByteBuffer.allocate(Math.toIntExact(bytes + 4096));
        PieceWriter writer = new PieceWriter(0, 1, 0, 0).add("state", src);
        Path dir = PieceDirectory.hostDefault();
        double[] copy = new double[reps];
        double[] crc = new double[reps];
        double[] encHeap = new double[reps];
        double[] encShm = new double[reps];
        for (int warm = 0; warm < 2; warm++) {
            for (int i = 0; i < reps; i++) {
                long t0 = System.nanoTime();
                System.arraycopy(src, 0, dst, 0, src.length);
                long t1 = System.nanoTime();
                CRC32C c = new CRC32C();
                c.update(heap.duplicate().clear().limit((int) bytes));
                long t2 = System.nanoTime();
                writer.encodeInto(heap);
                long t3 = System.nanoTime();
                Path file = dir.resolve("fthp-bench-copy-" + ProcessHandle.current().pid());
                PieceBytes mapped = PieceBytes.create(file, writer.encodedBytes(), true);
                long t4 = System.nanoTime();
                writer.encodeInto(mapped.view());
                long t5 = System.nanoTime();
                mapped.release();
                copy[i] = bytes / ((t1 - t0) / 1e9) / 1e6;
                crc[i] = bytes / ((t2 - t1) / 1e9) / 1e6;
                encHeap[i] = bytes / ((t3 - t2) / 1e9) / 1e6;
                encShm[i] = bytes / ((t5 - t3) / 1e9) / 1e6;
                Files.deleteIfExists(file);
            }
        }
        System.out.printf(Locale.ROOT, "memcpy %.0f%ncrc32c %.0f%nencode-heap %.0f%nencode-shm %.0f%n",
                median(copy), median(crc), median(encHeap), median(encShm));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
