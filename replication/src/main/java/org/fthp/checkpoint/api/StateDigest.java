package org.fthp.checkpoint.api;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import org.fthp.replication.sdc.RunningCrc;

/**
 * The CRC32C of a copy's registered state, every registration the twins compare (all but those registered
 * uncompared), names included, in registration order: what both copies of a replicated rank compute at a
 * checkpoint, while only one of them writes the piece. The fused kernel reads every array in place; the JDK's
 * intrinsic, arrays other than byte[] through an off-heap block it reads by address.
 */
final class StateDigest {

    private static final long BLOCK = 256 * 1024;

    private final MemorySegment block = Arena.ofAuto().allocate(BLOCK, 8);

    long of(Map<String, Object> registered, Set<String> uncompared) {
        RunningCrc crc = new RunningCrc();
        for (Map.Entry<String, Object> e : registered.entrySet()) {
            if (uncompared.contains(e.getKey())) {
                continue;
            }
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            crc.update(name, 0, name.length);
            fold(crc, e.getValue());
        }
        return crc.value();
    }

    private void fold(RunningCrc crc, Object state) {
        switch (state) {
            case byte[] a -> crc.update(a, 0, a.length);
            case short[] a -> viaBlock(crc, MemorySegment.ofArray(a));
            case char[] a -> viaBlock(crc, MemorySegment.ofArray(a));
            case int[] a -> viaBlock(crc, MemorySegment.ofArray(a));
            case long[] a -> viaBlock(crc, MemorySegment.ofArray(a));
            case float[] a -> viaBlock(crc, MemorySegment.ofArray(a));
            case double[] a -> viaBlock(crc, MemorySegment.ofArray(a));
            case Checkpointable c -> {
                byte[] w = written(c);
                crc.update(w, 0, w.length);
            }
            case ByteBuffer b when !b.isDirect() -> viaBlock(crc, MemorySegment.ofBuffer(b.duplicate()));
            case Buffer b -> viaBlock(crc, MemorySegment.ofBuffer(b));
            default -> { }
        }
    }

    private void viaBlock(RunningCrc crc, MemorySegment from) {
        if (from.isNative() || crc.readsAnyHeapArray()) {
            crc.update(from, 0, from.byteSize());
            return;
        }
        for (long done = 0; done < from.byteSize(); done += BLOCK) {
            long n = Math.min(BLOCK, from.byteSize() - done);
            MemorySegment.copy(from, done, block, 0, n);
            crc.update(block, 0, n);
        }
    }

    private static byte[] written(Checkpointable c) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            c.write(out);
        } catch (IOException e) {
            throw new CheckpointException("cannot hash the registered state: " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }
}
