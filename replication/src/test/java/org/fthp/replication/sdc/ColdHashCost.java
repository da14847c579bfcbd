package org.fthp.replication.sdc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

import org.fthp.replication.datatype.BaseType;
import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;

/**
 * What hashing costs a send's pack in a cold JVM (a measurement, not a test): the thread CPU of a program's first
 * {@code CALLS} packs of {@code BYTES} from a {@code double[]} into native staging, in a fresh JVM each, by
 * {@code MODE}: {@code pack} (the pack alone, as with --sdc off), {@code on} (SendDigest.packSent as a rank runs
 * it). Run it with -XX:+PrintCompilation to count what the JIT compiles for it, or -Xint for the interpreter's
 * cost alone.
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp replication/target/classes:replication/target/test-classes:... \
 *     org.fthp.replication.sdc.ColdHashCost MODE BYTES CALLS
 * </pre>
 */
public final class ColdHashCost {

    private ColdHashCost() {}

    public static void main(String[] args) {
        String mode = args[0];
        int n = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        double[] data = new double[n / 8];
        for (int i = 0; i < data.length; i++) {
            data[i] = i * 0.5;
        }
        UserBuffer src = UserBuffer.of(data);
        TypeLayout doubles = TypeLayout.primitive(BaseType.DOUBLE);
        MemorySegment dst = Arena.global().allocate(n + 64L, 64);
        SendDigest digest = mode.equals("pack") ? null : new SendDigest(true, null);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long t0 = threads.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            if (digest == null) {
                Packer.pack(src, 0, data.length, doubles, dst, 40);
            } else {
                digest.packSent(1, i & 3, 7, src, 0, data.length, doubles, dst, 40);
            }
        }
        long cpu = threads.getCurrentThreadCpuTime() - t0;
        long wall = System.nanoTime() - w0;
        System.out.println(String.format(Locale.ROOT, "coldhash %s %d B x %d: thread CPU %.2f us per call, wall %.2f us"
                + " per call; value %x", mode, n, calls, cpu / 1e3 / calls, wall / 1e3 / calls,
                digest == null ? 0 : digest.value()));
    }
}
