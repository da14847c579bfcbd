package org.fthp.checkpoint.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;

class StateDigestTest {

    /** Arrays of every kind, hashed in place or through the block, give the JDK's CRC32C of names and bytes. */
    @Test
    void theStateHashIsTheJdksCrc32cOfNamesAndBytesInRegistrationOrder() {
        double[] field = new double[300_001];
        for (int i = 0; i < field.length; i++) {
            field[i] = Math.sin(i);
        }
        int[] counts = {3, 1, 4, 1, 5, 9, 2, 6};
        byte[] flags = {1, 0, 1};
        long[] clock = {System.nanoTime()};
        Map<String, Object> registered = new LinkedHashMap<>();
        registered.put("field", field);
        registered.put("counts", counts);
        registered.put("clock", clock);
        registered.put("flags", flags);

        CRC32C want = new CRC32C();
        for (String name : new String[] {"field", "counts", "flags"}) {
            want.update(name.getBytes(StandardCharsets.UTF_8));
            Object a = registered.get(name);
            MemorySegment seg = a instanceof double[] d ? MemorySegment.ofArray(d)
                    : a instanceof int[] n ? MemorySegment.ofArray(n) : MemorySegment.ofArray((byte[]) a);
            want.update(seg.toArray(ValueLayout.JAVA_BYTE));
        }
        assertEquals(want.getValue(), new StateDigest().of(registered, Set.of("clock")));
    }
}
