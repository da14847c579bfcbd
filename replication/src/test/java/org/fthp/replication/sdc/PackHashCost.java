package org.fthp.replication.sdc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.fthp.replication.datatype.BaseType;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;

/**
 * What hashing a send costs its pack, in one JVM (a measurement, not a test): the thread CPU per pack of
 * {@code BYTES} from a direct buffer into native staging, the pack alone against {@link SendDigest#packSent} on
 * the fused kernel called by JNI and by FFM downcalls and on the JDK's CRC32C, interleaved (each round runs the
 * four in a rotating order), median of the rounds. Payloads above 1 MiB rotate over 8 sources and destinations, so they come from memory.
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp replication/target/classes:replication/target/test-classes:... \
 *     org.fthp.replication.sdc.PackHashCost BYTES [ROUNDS [heap]]
 * </pre>
 */
public final class PackHashCost {

    private PackHashCost() {}

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        boolean heap = args.length > 2 && args[2].equals("heap");
        int bufs = n > 1 << 20 ? 8 : 1;
        int iterations = (int) Math.max(50, (1L << 31) / Math.max(n, 1) / 8);
        TypeLayout bytes = TypeLayout.primitive(BaseType.BYTE);
        UserBuffer[] src = new UserBuffer[bufs];
        MemorySegment[] dst = new MemorySegment[bufs];
        for (int i = 0; i < bufs; i++) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(n);
            for (int k = 0; k < n; k += 8) {
                b.putLong(k, k * 0x9E3779B97F4A7C15L);
            }
            if (heap) {
                byte[] a = new byte[n];
                b.get(0, a);
                src[i] = UserBuffer.of(a);
            } else {
                src[i] = UserBuffer.of(b);
            }
            dst[i] = Arena.global().allocate(n + 64L, 64);
        }
        if (CrcKernel.get() == null) {
            throw new IllegalStateException("no fused kernel here");
        }
        SendDigest fused = new SendDigest(true, null, new RunningCrc());
        SendDigest ffm = new SendDigest(true, null, new RunningCrc(CrcKernel.byDowncalls()));
        SendDigest java = new SendDigest(true, null, new RunningCrc(null));
        String[] names = {"pack", CrcKernel.get().jni() ? "jni" : "ffm", "ffm", "java"};
        int k = names.length;
        List<double[]> us = new ArrayList<>();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int r = -3; r < rounds; r++) {
            double[] round = new double[k];
            for (int j = 0; j < k; j++) {
                int which = (j + Math.max(r, 0)) % k;
                long t0 = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < iterations; i++) {
                    UserBuffer s = src[i % bufs];
                    MemorySegment d = dst[i % bufs];
                    switch (which) {
                        case 0 -> Packer.pack(s, 0, n, bytes, d, 16);
                        case 1 -> fused.packSent(1, 0, 0, s, 0, n, bytes, d, 16);
                        case 2 -> ffm.packSent(1, 0, 0, s, 0, n, bytes, d, 16);
                        default -> java.packSent(1, 0, 0, s, 0, n, bytes, d, 16);
                    }
                }
                round[which] = (threads.getCurrentThreadCpuTime() - t0) / 1e3 / iterations;
            }
            if (r >= 0) {
                us.add(round);
            }
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "packhash %d B%s, %d rounds:", n,
                heap ? " from byte[]" : "", rounds));
        for (int c = 0; c < k; c++) {
            int kk = c;
            double[] v = us.stream().mapToDouble(x -> x[kk]).sorted().toArray();
            out.append(String.format(Locale.ROOT, " %s %.3f us (%.3f-%.3f)", names[c], v[v.length / 2], v[0],
                    v[v.length - 1]));
        }
        out.append("; hash's cost over the pack (medians):");
        for (int c = 1; c < k; c++) {
            int cc = c;
            double[] extra = us.stream().mapToDouble(x -> x[cc] - x[0]).sorted().toArray();
            out.append(String.format(Locale.ROOT, " %s %.3f us", names[c], extra[extra.length / 2]));
        }
        System.out.println(out);
        System.out.println(Arrays.toString(new long[] {fused.value(), ffm.value(), java.value()}));
    }
}
