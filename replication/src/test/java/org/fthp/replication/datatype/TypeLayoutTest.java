package org.fthp.replication.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TypeLayoutTest {

    private static final TypeLayout DOUBLE = TypeLayout.primitive(BaseType.DOUBLE);
    private static final TypeLayout INT = TypeLayout.primitive(BaseType.INT);
    private static final TypeLayout SHORT = TypeLayout.primitive(BaseType.SHORT);

    @Test
    void contiguousMergesIntoOneDenseBlock() {
        TypeLayout t = TypeLayout.contiguous(5, DOUBLE);
        assertEquals(40, t.size());
        assertEquals(40, t.extent());
        assertEquals(1, t.blockCount());
        assertTrue(t.isDense());
    }

    @Test
    void vectorKeepsItsStrideAndExtent() {
        // 3 blocks of 2 doubles, 4 doubles apart: extent ends after the last block
        TypeLayout t = TypeLayout.hvector(3, 2, 4 * 8, DOUBLE);
        assertEquals(48, t.size());
        assertEquals((2 * 4 + 2) * 8, t.extent());
        assertEquals(3, t.blockCount());
        assertEquals(32, t.blockDisp(1));
        assertFalse(t.isDense());
    }

    @Test
    void indexedKeepsTypeMapOrderAndBounds() {
        TypeLayout t = TypeLayout.hindexed(new int[] {1, 2}, new long[] {40, 8}, DOUBLE);
        assertEquals(40, t.blockDisp(0));
        assertEquals(8, t.blockDisp(1));
        assertEquals(8, t.lb());
        assertEquals(40, t.extent());   // from 8 to 48
        assertEquals(8, t.trueLb());
    }

    @Test
    void structExtentIsPaddedToItsMostAlignedMember() {
        // int @0, double[2] @8, short @24: ends at 26, the native library pads to 32
        TypeLayout t = TypeLayout.struct(new int[] {1, 2, 1}, new long[] {0, 8, 24},
                new TypeLayout[] {INT, DOUBLE, SHORT});
        assertEquals(4 + 16 + 2, t.size());
        assertEquals(32, t.extent());
        assertEquals(BaseType.BYTE, t.base());
    }

    @Test
    void resizedChangesOnlyTheBounds() {
        TypeLayout t = TypeLayout.resized(INT, -4, 16);
        assertEquals(-4, t.lb());
        assertEquals(16, t.extent());
        assertEquals(4, t.size());
        assertEquals(0, t.trueLb());
    }

    @Test
    void spanCoversTheLastItemOnly() {
        TypeLayout t = TypeLayout.hvector(2, 1, 16, DOUBLE);     // extent 24, data at 0 and 16
        assertEquals(0, UserBuffer.span(0, t));
        assertEquals(24, UserBuffer.span(1, t));
        assertEquals(24 + 24, UserBuffer.span(2, t));
    }

    /** MPI_Get_elements / MPI_Status_set_elements: whole items, then a partial item's elements in type-map order. */
    @Test
    void basicElementsCountAcrossAPartialItem() {
        assertEquals(3, INT.elementsIn(12));
        assertEquals(-1, INT.elementsIn(10));   // ends inside an int: MPI_UNDEFINED
        // {int, double, 2 shorts}: 4 elements of 4 + 8 + 2 + 2 bytes (16 of data)
        TypeLayout rec = TypeLayout.struct(new int[] {1, 1, 2}, new long[] {0, 8, 16},
                new TypeLayout[] {INT, DOUBLE, SHORT});
        assertEquals(4, rec.elements());
        assertEquals(8, rec.elementsIn(32));          // two whole records
        assertEquals(4 + 2, rec.elementsIn(16 + 12)); // a record, then its int and double
        assertEquals(4 + 3, rec.elementsIn(16 + 14)); // ... and one short
        assertEquals(-1, rec.elementsIn(16 + 6));     // ends inside the double
        assertEquals(16 + 14, rec.bytesOfElements(7));
        assertEquals(0, rec.bytesOfElements(0));
        // nesting and resizing keep the elements: 3 records = 12 elements
        TypeLayout three = TypeLayout.resized(TypeLayout.contiguous(3, rec), 0, 100);
        assertEquals(12, three.elements());
        assertEquals(12 + 1, three.elementsIn(48 + 4));
        assertEquals(48 + 4, three.bytesOfElements(13));
        TypeLayout empty = TypeLayout.contiguous(0, INT);
        assertEquals(0, empty.elementsIn(0));
        assertEquals(-1, empty.elementsIn(4));
    }
}
