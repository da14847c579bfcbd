package org.fthp.replication.sdc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.output.RuntimeMessages;

/**
 * fthp-run's {@code --corrupt R[:cmp|rep][:state|msg]@S|#C}: one bit of this process flipped, as a cosmic ray or a
 * faulty core would, once the program has run {@code S} seconds or entered its {@code C}-th MPI call: in an element
 * of a registered array ({@link Target#STATE}) or in the payload of the next message it sends ({@link Target#MSG}:
 * as a wrong result computed into it, before the twin hash, the log and any native send see it, so every copy of
 * the destination this process feeds, a resend after a repair and this copy's own hash all get the same flipped
 * bytes; the twin computed and sent the clean ones). Which element and bit is seeded, so a run can be repeated.
 */
public final class Corruption {

    /** {@code NATIVE:state|msg:@SECONDS|#CALL,...}, set by fthp-run. */
    public static final String ENV = "FTHP_CORRUPT";
    /** The seed of the element and bit chosen. */
    public static final String SEED_ENV = "FTHP_CORRUPT_SEED";

    public enum Target { STATE, MSG }

    /** Registered arrays a state flip may hit; the checkpoint session supplies them. */
    @FunctionalInterface
    public interface StateArrays {
        /** The arrays registered now (primitive arrays only), in registration order. */
        Object[] arrays();
    }

    private final int nativeRank;
    private final Target target;
    private final long atCall;
    private final long atNanos;
    private final LongSupplier calls;
    private final SplittableRandom random;
    private volatile StateArrays state;
    private boolean fired;
    /** A message flip is due: the next send's payload takes it. */
    private boolean messagePending;

    private Corruption(int nativeRank, Target target, long atCall, long atNanos, LongSupplier calls, long seed) {
        this.nativeRank = nativeRank;
        this.target = target;
        this.atCall = atCall;
        this.atNanos = atNanos;
        this.calls = calls;
        this.random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + nativeRank);
    }

    /** This process's corruption from {@code spec}, or null; {@code calls} counts its MPI calls. */
    public static Corruption forRank(int nativeRank, String spec, String seed, LongSupplier calls) {
        if (spec == null || spec.isBlank()) {
            return null;
        }
        for (String one : spec.split(",")) {
            String[] f = one.strip().split(":");
            if (f.length != 3) {
                throw new IllegalArgumentException(ENV + " holds NATIVE:state|msg:@S|#C entries, not \"" + one + "\"");
            }
            try {
                if (Integer.parseInt(f[0]) != nativeRank) {
                    continue;
                }
                Target target = Target.valueOf(f[1].toUpperCase(java.util.Locale.ROOT));
                long s = seed == null || seed.isBlank() ? 1 : Long.parseLong(seed);
                if (f[2].startsWith("#")) {
                    return new Corruption(nativeRank, target, Long.parseLong(f[2].substring(1)), 0, calls, s);
                }
                long nanos = (long) (Double.parseDouble(f[2].substring(1)) * 1e9);
                return new Corruption(nativeRank, target, 0, System.nanoTime() + nanos, calls, s);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(ENV + " holds NATIVE:state|msg:@S|#C entries, not \"" + one + "\"");
            }
        }
        return null;
    }

    public void stateFrom(StateArrays arrays) {
        this.state = arrays;
    }

    /** At an MPI call of the program: fires when due (a state flip at once, a message flip at the next send). */
    public void poll() {
        if (fired || !due()) {
            return;
        }
        if (target == Target.MSG) {
            fired = true;
            messagePending = true;
            return;
        }
        StateArrays s = state;
        Object[] arrays = s == null ? new Object[0] : s.arrays();
        if (arrays.length == 0) {
            return;   // nothing registered yet: the first registration's next call takes it
        }
        fired = true;
        flipIn(arrays[random.nextInt(arrays.length)]);
    }

    /** Whether a message flip is due: the next payload, once packed, takes it ({@link #flipPayload}). */
    public boolean messagePending() {
        return messagePending;
    }

    /** A pending message flip goes into this payload; whether one did. */
    public boolean flipPayload(MemorySegment seg, long off, long len) {
        if (!messagePending || len <= 0) {
            return false;
        }
        messagePending = false;
        long bit = random.nextLong(len * 8);
        long at = off + bit / 8;
        byte b = seg.get(ValueLayout.JAVA_BYTE, at);
        seg.set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ (1 << (bit % 8))));
        RuntimeMessages.say("fthp: native rank " + nativeRank + " flips bit " + bit + " of the payload of its next"
                + " message (--corrupt)");
        return true;
    }

    private boolean due() {
        return atCall > 0 ? calls.getAsLong() >= atCall : System.nanoTime() >= atNanos;
    }

    private void flipIn(Object array) {
        MemorySegment seg = UserBuffer.arraySegment(array);
        if (seg == null || seg.byteSize() == 0) {
            return;
        }
        long bit = random.nextLong(seg.byteSize() * 8);
        long at = bit / 8;
        byte b = seg.get(ValueLayout.JAVA_BYTE, at);
        seg.set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ (1 << (bit % 8))));
        RuntimeMessages.say("fthp: native rank " + nativeRank + " flips bit " + bit % 8 + " of byte " + at
                + " of a registered " + array.getClass().getSimpleName() + " (--corrupt)");
    }
}
