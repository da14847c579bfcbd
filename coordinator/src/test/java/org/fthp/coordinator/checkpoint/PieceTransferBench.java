package org.fthp.coordinator.checkpoint;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.fthp.checkpoint.piece.PieceWriter;
import org.fthp.checkpoint.store.CheckpointStore;
import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.testing.EmulatedJob;

/**
 * Not a test: what a checkpoint costs one rank against its state size, beside what this machine's memory and disk
 * can do. Two emulated nodes (two coordinators in this JVM, loopback), one rank on each.
 *
 * <pre>
 * java -Xmx6g -cp &lt;coordinator test class path&gt; org.fthp.coordinator.checkpoint.PieceTransferBench [MiB ...]
 * </pre>
 * Columns, MB/s (10^6 bytes/s), median of 3 after a warm-up: encode (the state's double[] into a piece),
 * put (process → its node → the partner node, acknowledged), get (from the other node's memory), memcpy
 * (System.arraycopy of the same size), disk (CheckpointStore.writePiece: write, fsync, rename, fsync).
 */
public final class PieceTransferBench {
    private PieceTransferBench() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String a : args) {
            sizes.add(Integer.parseInt(a));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1, 16, 64, 256);
        }
        Path dir = Files.createTempDirectory("fthp-bench-ckpt-");
        CheckpointStore store = CheckpointStore.open(dir);
        System.out.printf("%8s %10s %10s %10s %10s %10s%n", "MiB", "encode", "put", "get", "memcpy", "disk");
        try (EmulatedJob job = new EmulatedJob(2, 2, 2, 0, Duration.ofSeconds(5),
                node -> CheckpointConfig.DEFAULT.withMemoryLimit(3L << 30))) {
            CoordinatorClient rank0 = job.clients.get(0);
            CoordinatorClient rank1 = job.clients.get(1);
            long epoch = 0;
            for (int mib : sizes) {
                double[] state = new double[mib * 131072];
                for (int i = 0; i < state.length; i++) {
                    state[i] = i * 0.5;
                }
                List<Double> encode = new ArrayList<>();
                List<Double> put = new ArrayList<>();
                List<Double> get = new ArrayList<>();
                List<Double> copy = new ArrayList<>();
                List<Double> disk = new ArrayList<>();
                for (int round = 0; round < 4; round++) {
                    epoch++;
                    long t0 = System.nanoTime();
                    ByteBuffer piece = new PieceWriter(0, epoch, 0, 0).add("state", state).encode();
                    long t1 = System.nanoTime();
                    rank0.putPiece(epoch, 0, piece, Duration.ofMinutes(2));
                    long t2 = System.nanoTime();
                    rank1.putPiece(epoch, 1, ByteBuffer.wrap(new byte[8]), Duration.ofMinutes(2));
                    rank1.awaitCommitted(epoch, Duration.ofMinutes(1));
                    long t3 = System.nanoTime();
                    ByteBuffer back = rank1.getPiece(epoch, 0, Duration.ofMinutes(2));
                    long t4 = System.nanoTime();
                    byte[] target = new byte[piece.capacity()];
                    long t5 = System.nanoTime();
                    System.arraycopy(piece.array(), 0, target, 0, target.length);
                    long t6 = System.nanoTime();
                    store.writePiece(epoch, 0, piece);
                    long t7 = System.nanoTime();
                    if (!back.equals(piece.clear())) {
                        throw new AssertionError("the piece came back different");
                    }
                    if (round == 0) {
                        continue; // warm-up
                    }
                    double bytes = piece.capacity();
                    encode.add(bytes / (t1 - t0) * 1e3);
                    put.add(bytes / (t2 - t1) * 1e3);
                    get.add(bytes / (t4 - t3) * 1e3);
                    copy.add(bytes / (t6 - t5) * 1e3);
                    disk.add(bytes / (t7 - t6) * 1e3);
                }
                System.out.printf(Locale.ROOT, "%8d %10.0f %10.0f %10.0f %10.0f %10.0f%n", mib, median(encode),
                        median(put), median(get), median(copy), median(disk));
            }
        } finally {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(Collections.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
