package org.fthp.replication.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.fthp.replication.datatype.BaseType;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.junit.jupiter.api.Test;

class BlocksTest {

    private static final TypeLayout INT = TypeLayout.primitive(BaseType.INT);

    private static Region ints(int[] buf, int firstItem, int count) {
        long start = UserBuffer.START + firstItem * INT.extent();
        return new Region(UserBuffer.of(buf), start, count, INT);
    }

    @Test
    void blocksPackAtTheirDisplacementsAndUnpackBackIntoTheirRegions() {
        int[] program = {10, 11, 12, 13, 14, 15};
        // peer 0: items 4..5 at staging byte 8; peer 1: item 0 at staging byte 0 (a v-collective's displacements)
        Region[] regions = {ints(program, 4, 2), ints(program, 0, 1)};
        Blocks blocks = Blocks.at(regions, new int[] {8, 4}, new int[] {8, 0});
        assertEquals(16, blocks.totalBytes(), "staging ends where the furthest block does");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(blocks.totalBytes());
            blocks.packInto(staging);
            assertArrayEquals(new int[] {10, 0, 14, 15}, staging.toArray(ValueLayout.JAVA_INT));

            staging.setAtIndex(ValueLayout.JAVA_INT, 0, 20);
            staging.setAtIndex(ValueLayout.JAVA_INT, 2, 24);
            staging.setAtIndex(ValueLayout.JAVA_INT, 3, 25);
            blocks.unpackFrom(staging);
            assertArrayEquals(new int[] {20, 11, 12, 13, 24, 25}, program);
        }
    }

    @Test
    void noBlocksStageNothingAndTouchNothing() {
        Blocks none = Blocks.none(3);
        assertEquals(0, none.totalBytes());
        assertArrayEquals(new int[3], none.byteCounts());
        assertArrayEquals(new int[3], none.byteDispls());
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(4);
            none.packInto(staging);
            none.unpackFrom(staging);
            assertEquals(0, staging.get(ValueLayout.JAVA_INT, 0));
        }
    }

    @Test
    void aRegionWithoutABufferMovesNothing() {
        Region empty = new Region(null, UserBuffer.START, 0, INT);
        assertEquals(0, empty.bytes());
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(4);
            staging.set(ValueLayout.JAVA_INT, 0, 7);
            empty.packInto(staging, 0);
            empty.unpackFrom(staging, 0);
            assertEquals(7, staging.get(ValueLayout.JAVA_INT, 0));
        }
    }
}
