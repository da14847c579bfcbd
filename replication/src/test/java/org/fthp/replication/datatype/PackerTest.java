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
        UserBuffer src = UserBuffer.of(matrix, column);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(24);
            Packer.pack(src, 8, 1, column, staging, 0);     // column 1
            assertArrayEquals(new double[] {1, 5, 9}, staging.toArray(ValueLayout.JAVA_DOUBLE));

            double[] target = new double[12];
            Packer.unpack(staging, 0, UserBuffer.of(target, column), 16, 1, column);   // into column 2
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
            Packer.pack(UserBuffer.of(b, ints), 4, 2, ints, staging, 0);
            assertArrayEquals(new int[] {8, 9}, staging.toArray(ValueLayout.JAVA_INT));
        }
    }

    @Test
    void booleansTravelAsOneBytePerValue() {
        boolean[] flags = {true, false, true};
        TypeLayout bool = TypeLayout.primitive(BaseType.BOOLEAN);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment staging = a.allocate(3);
            Packer.pack(UserBuffer.of(flags, bool), 0, 3, bool, staging, 0);
            boolean[] back = new boolean[3];
            Packer.unpack(staging, 0, UserBuffer.of(back, bool), 0, 3, bool);
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
        Packer.packToBytes(UserBuffer.of(matrix, column), 8, 1, column, packed, 4);   // column 1, after 4 bytes
        ByteBuffer view = ByteBuffer.wrap(packed).order(ByteOrder.nativeOrder());
        assertEquals(0, view.getInt(0), "bytes before the position are left alone");
        assertEquals(1.0, view.getDouble(4));
        assertEquals(5.0, view.getDouble(12));
        assertEquals(9.0, view.getDouble(20));

        double[] target = new double[12];
        Packer.unpackFromBytes(packed, 4, UserBuffer.of(target, column), 24, 1, column);   // into column 3
        assertEquals(1, target[3]);
        assertEquals(5, target[7]);
        assertEquals(9, target[11]);
        assertEquals(0, target[1]);
    }

    @Test
    void anArrayOfTheWrongKindIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> UserBuffer.of(new int[4], DOUBLE));
    }
}
