package org.fthp.replication.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

import org.junit.jupiter.api.Test;

class PackerTest {

    private static final TypeLayout DOUBLE = TypeLayout.primitive(BaseType.DOUBLE);

    @Test
    void packsAStridedColumnAndUnpacksItBackIntoPlace() {
        double[] matrix = new double[12];  // 3 rows x 4 columns, row-major
        for (int i = 0; i < matrix.length; i++) {
            matrix[i] = i;
        }
        TypeLayout column = TypeLayout.hvector(3, 1, 4 * 8, DOUBLE);
        UserBuffer src = UserBuffer.of(matrix);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(24);
            Packer.pack(src, 8, 1, column, staging, 0);     // column 1
            assertArrayEquals(new double[] {1, 5, 9}, staging.toArray(ValueLayout.JAVA_DOUBLE));

            double[] target = new double[12];
            Packer.unpack(staging, 0, UserBuffer.of(target), 16, 1, column);   // into column 2
            assertEquals(1, target[2]);
            assertEquals(5, target[6]);
            assertEquals(9, target[10]);
            assertEquals(0, target[3]);
        }
    }

    @Test
    void buffersAreSeenFromTheirStartWhateverTheirPosition() {
        IntBuffer b = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder()).asIntBuffer();
        b.put(new int[] {7, 8, 9, 10});   // position now 4: ignored, as in Open MPI's binding
        TypeLayout ints = TypeLayout.contiguous(1, TypeLayout.primitive(BaseType.INT));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(8);
            Packer.pack(UserBuffer.of(b), 4, 2, ints, staging, 0);
            assertArrayEquals(new int[] {8, 9}, staging.toArray(ValueLayout.JAVA_INT));
        }
    }

    @Test
    void booleansTravelAsOneBytePerValue() {
        boolean[] flags = {true, false, true};
        TypeLayout bool = TypeLayout.primitive(BaseType.BOOLEAN);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(3);
            Packer.pack(UserBuffer.of(flags), 0, 3, bool, staging, 0);
            boolean[] back = new boolean[3];
            Packer.unpack(staging, 0, UserBuffer.of(back), 0, 3, bool);
            assertArrayEquals(flags, back);
        }
    }

    @Test
    void packsIntoAByteArrayAtAPositionAndUnpacksBack() {
        double[] matrix = new double[12];  // 3 rows x 4 columns, row-major
        for (int i = 0; i < matrix.length; i++) {
            matrix[i] = i;
        }
        TypeLayout column = TypeLayout.hvector(3, 1, 4 * 8, DOUBLE);
        byte[] packed = new byte[4 + 24];
        Packer.packToBytes(UserBuffer.of(matrix), 8, 1, column, packed, 4);   // column 1, after 4 bytes
        ByteBuffer view = ByteBuffer.wrap(packed).order(ByteOrder.nativeOrder());
        assertEquals(0, view.getInt(0), "bytes before the position are left alone");
        assertEquals(1.0, view.getDouble(4));
        assertEquals(5.0, view.getDouble(12));
        assertEquals(9.0, view.getDouble(20));

        double[] target = new double[12];
        Packer.unpackFromBytes(packed, 4, UserBuffer.of(target), 24, 1, column);   // into column 3
        assertEquals(1, target[3]);
        assertEquals(5, target[7]);
        assertEquals(9, target[11]);
        assertEquals(0, target[1]);
    }

    /** As Open MPI's binding: the array's element type and the datatype need not agree; bytes are native-order. */
    @Test
    void anyArrayIsItsRawBytesInNativeOrder() {
        int[] ints = {0x04030201, 0x08070605};
        TypeLayout bytes = TypeLayout.primitive(BaseType.BYTE);
        TypeLayout chars = TypeLayout.primitive(BaseType.CHAR);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(8);
            Packer.pack(UserBuffer.of(ints), 0, 5, bytes, staging, 0);   // 5 bytes: splits the second int
            ByteOrder order = ByteOrder.nativeOrder();
            assertEquals(ByteBuffer.allocate(4).order(order).putInt(0x04030201).get(0), staging.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(ByteBuffer.allocate(4).order(order).putInt(0x08070605).get(0), staging.get(ValueLayout.JAVA_BYTE, 4));

            int[] back = new int[2];
            Packer.unpack(staging, 0, UserBuffer.of(back), 0, 2, chars);   // 2 chars = the first int's 4 bytes
            assertArrayEquals(new int[] {0x04030201, 0}, back);
        }
        assertEquals(8, UserBuffer.of(ints).bytes());
        assertEquals(3, UserBuffer.of(new boolean[3]).bytes());
        assertEquals(null, UserBuffer.of("not a buffer"));
    }

    /**
     * Whole elements of an array are copied by element, a part of one byte by byte: the same bytes either way,
     * into staging and back, for every primitive array type.
     */
    @Test
    void wholeAndSplitElementsOfEveryArrayTypeCopyTheSameBytes() {
        TypeLayout bytes = TypeLayout.primitive(BaseType.BYTE);
        Object[] arrays = {
            new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
            new char[] {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'},
            new short[] {-1, 2, -3, 4, -5, 6, -7, 8},
            new int[] {0x01020304, -5, 0x7f000001, 42},
            new float[] {1.5f, -2.25f, 3e9f, Float.MIN_VALUE},
            new long[] {0x0102030405060708L, -9L},
            new double[] {Math.PI, -0.0},
        };
        try (Arena a = Arena.ofConfined()) {
            for (Object array : arrays) {
                MemorySegment whole = bytesOf(array);
                String kind = array.getClass().getSimpleName();
                // 8 bytes from byte 8 and all 16: whole elements of every type; 7 bytes from byte 3: parts of some
                for (long[] range : new long[][] {{8, 8}, {3, 7}, {0, 16}}) {
                    long from = range[0];
                    int len = (int) range[1];
                    MemorySegment staging = a.allocate(16);
                    Packer.pack(UserBuffer.of(array), from, len, bytes, staging, 0);
                    assertArrayEquals(whole.asSlice(from, len).toArray(ValueLayout.JAVA_BYTE),
                            staging.asSlice(0, len).toArray(ValueLayout.JAVA_BYTE), kind + " " + from + "+" + len);

                    Object back = java.lang.reflect.Array.newInstance(array.getClass().getComponentType(),
                            java.lang.reflect.Array.getLength(array));
                    Packer.unpack(staging, 0, UserBuffer.of(back), from, len, bytes);
                    byte[] expected = new byte[16];
                    MemorySegment.copy(whole, from, MemorySegment.ofArray(expected), from, len);
                    assertArrayEquals(expected, bytesOf(back).toArray(ValueLayout.JAVA_BYTE), kind + " back " + from);
                }
            }
        }
    }

    /** The bytes of a primitive array. */
    private static MemorySegment bytesOf(Object array) {
        return switch (array) {
            case byte[] x -> MemorySegment.ofArray(x);
            case char[] x -> MemorySegment.ofArray(x);
            case short[] x -> MemorySegment.ofArray(x);
            case int[] x -> MemorySegment.ofArray(x);
            case float[] x -> MemorySegment.ofArray(x);
            case long[] x -> MemorySegment.ofArray(x);
            case double[] x -> MemorySegment.ofArray(x);
            default -> throw new AssertionError(array);
        };
    }

    /** A heap buffer's array offset is its origin: a datatype may reach the array's bytes before it. */
    @Test
    void aSlicedHeapBufferReachesBackIntoItsArray() {
        int[] array = {10, 11, 12, 13, 14, 15};
        IntBuffer slice = IntBuffer.wrap(array, 3, 3).slice();   // as MPI.slice(array, 3)
        UserBuffer ub = UserBuffer.of(slice);
        assertEquals(12, ub.bytesBefore());
        assertEquals(12, ub.bytes());
        // one item: the int 8 bytes before the origin, then the one at the origin
        TypeLayout backAndHere = TypeLayout.hindexed(new int[] {1, 1}, new long[] {-8, 0},
                TypeLayout.primitive(BaseType.INT));
        assertEquals(-8, UserBuffer.firstByte(1, backAndHere));
        assertEquals(4, UserBuffer.span(1, backAndHere));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(8);
            Packer.pack(ub, 0, 1, backAndHere, staging, 0);
            assertEquals(11, staging.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            assertEquals(13, staging.get(ValueLayout.JAVA_INT_UNALIGNED, 4));
            // bytes before the array itself are refused by the JDK's own bounds check
            assertThrows(IndexOutOfBoundsException.class, () -> Packer.pack(ub, -8, 1, backAndHere, staging, 0));
        }
    }

    @Test
    void countAndNegativeExtentBoundTheBytesTouched() {
        TypeLayout ints = TypeLayout.primitive(BaseType.INT);
        assertEquals(0, UserBuffer.firstByte(3, ints));
        assertEquals(12, UserBuffer.span(3, ints));
        TypeLayout backwards = TypeLayout.resized(ints, 0, -4);   // each item 4 bytes before the last
        assertEquals(-8, UserBuffer.firstByte(3, backwards));
        assertEquals(4, UserBuffer.span(3, backwards));
        assertEquals(0, UserBuffer.span(0, ints));
    }
}
