package org.fthp.checkpoint.piece;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;

class PieceCodecTest {

    private static final class Counter {
        long iteration;
        String label = "";
    }

    private static PieceWriter sample(ByteBuffer direct, Counter counter) {
        return new PieceWriter(3, 17, 1234, 56)
                .add("b", new byte[] {1, -2, 3})
                .add("s", new short[] {-7, 300})
                .add("c", new char[] {'x', 'é'})
                .add("i", new int[] {1, Integer.MIN_VALUE, 42})
                .add("l", new long[] {Long.MAX_VALUE})
                .add("f", new float[] {1.5f, Float.NaN})
                .add("d", new double[] {Math.PI, -0.0, 1e300})
                .add("buf", direct)
                .add("obj", out -> {
                    out.writeLong(counter.iteration);
                    out.writeUTF(counter.label);
                });
    }

    @Test
    void everyKindRoundTrips() throws Exception {
        ByteBuffer direct = ByteBuffer.allocateDirect(10);
        for (int k = 0; k < 10; k++) {
            direct.put(k, (byte) (k * 3));
        }
        Counter counter = new Counter();
        counter.iteration = 99;
        counter.label = "halfway";
        PieceWriter writer = sample(direct, counter);
        ByteBuffer piece = writer.encode();
        assertEquals(writer.encodedBytes(), piece.capacity());

        PieceReader r = PieceReader.open(piece);
        assertEquals(3, r.logicalRank());
        assertEquals(17, r.epoch());
        assertEquals(1234, r.stdoutPosition());
        assertEquals(56, r.stderrPosition());
        assertEquals(List.of("b", "s", "c", "i", "l", "f", "d", "buf", "obj"), List.copyOf(r.sections().keySet()));

        byte[] b = new byte[3];
        r.readInto("b", b);
        assertArrayEquals(new byte[] {1, -2, 3}, b);
        short[] s = new short[2];
        r.readInto("s", s);
        assertArrayEquals(new short[] {-7, 300}, s);
        char[] c = new char[2];
        r.readInto("c", c);
        assertArrayEquals(new char[] {'x', 'é'}, c);
        int[] i = new int[3];
        r.readInto("i", i);
        assertArrayEquals(new int[] {1, Integer.MIN_VALUE, 42}, i);
        long[] l = new long[1];
        r.readInto("l", l);
        assertArrayEquals(new long[] {Long.MAX_VALUE}, l);
        float[] f = new float[2];
        r.readInto("f", f);
        assertEquals(Float.floatToRawIntBits(Float.NaN), Float.floatToRawIntBits(f[1]));
        double[] d = new double[3];
        r.readInto("d", d);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(d[1]), "bitwise, sign of zero kept");
        assertEquals(Math.PI, d[0]);
        ByteBuffer back = ByteBuffer.allocateDirect(10);
        r.readInto("buf", back);
        assertEquals(direct.clear(), back.flip());
        Counter restored = new Counter();
        r.readInto("obj", in -> {
            restored.iteration = in.readLong();
            restored.label = in.readUTF();
        });
        assertEquals(99, restored.iteration);
        assertEquals("halfway", restored.label);
    }

    @Test
    void encodeIntoReturnsTheCrcOfTheWholePiece() {
        PieceWriter w = new PieceWriter(0, 1, 0, 0).add("x", new double[100]);
        ByteBuffer direct = ByteBuffer.allocateDirect((int) w.encodedBytes());
        int crc = w.encodeInto(direct);
        CRC32C expected = new CRC32C();
        expected.update(direct.duplicate().clear());
        assertEquals((int) expected.getValue(), crc);
        assertEquals(0, direct.position(), "absolute writes leave the buffer's position alone");
    }

    @Test
    void everySingleFlippedByteIsDetected() {
        ByteBuffer piece = sample(ByteBuffer.allocateDirect(4), new Counter()).encode();
        for (int at = 0; at < piece.capacity(); at++) {
            ByteBuffer damaged = ByteBuffer.allocate(piece.capacity()).put(piece.duplicate().clear()).flip();
            damaged.put(at, (byte) (damaged.get(at) ^ 0x10));
            int where = at;
            assertThrows(CorruptPieceException.class, () -> PieceReader.open(damaged), () -> "flip at " + where);
        }
    }

    @Test
    void openCheckedLeavesTheTrailerToTheCallerAndChecksTheRest() throws Exception {
        ByteBuffer piece = new PieceWriter(1, 2, 0, 0).add("a", new int[] {5, 6}).encode();
        ByteBuffer badTrailer = ByteBuffer.allocate(piece.capacity()).put(piece.duplicate().clear()).flip();
        int last = badTrailer.capacity() - 1;
        badTrailer.put(last, (byte) (badTrailer.get(last) ^ 1));
        assertThrows(CorruptPieceException.class, () -> PieceReader.open(badTrailer));
        int[] a = new int[2];
        PieceReader.openChecked(badTrailer).readInto("a", a);
        assertArrayEquals(new int[] {5, 6}, a);
        assertThrows(CorruptPieceException.class,
                () -> PieceReader.openChecked(piece.duplicate().clear().limit(piece.capacity() - 1)));
    }

    @Test
    void truncatedOrForeignBytesAreClearErrors() {
        ByteBuffer piece = new PieceWriter(1, 2, 0, 0).add("a", new int[] {5}).encode();
        CorruptPieceException cut = assertThrows(CorruptPieceException.class,
                () -> PieceReader.open(piece.duplicate().clear().limit(piece.capacity() - 1)));
        assertTrue(cut.getMessage().contains("truncated"), cut.getMessage());
        CorruptPieceException tiny = assertThrows(CorruptPieceException.class,
                () -> PieceReader.open(ByteBuffer.allocate(10)));
        assertTrue(tiny.getMessage().contains("shorter"), tiny.getMessage());
        CorruptPieceException foreign = assertThrows(CorruptPieceException.class,
                () -> PieceReader.open(ByteBuffer.wrap("#!/bin/sh\necho not a piece, but long enough to have a header\n".repeat(2).getBytes())));
        assertTrue(foreign.getMessage().contains("magic"), foreign.getMessage());
    }

    @Test
    void askingForTheWrongKindSizeOrNameSaysSo() throws Exception {
        PieceReader r = PieceReader.open(new PieceWriter(0, 0, 0, 0).add("a", new int[] {1, 2}).encode());
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> r.readInto("a", new long[2]));
        assertTrue(kind.getMessage().contains("INTS"), kind.getMessage());
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class, () -> r.readInto("a", new int[3]));
        assertTrue(size.getMessage().contains("2"), size.getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.readInto("nope", new int[2]));
    }

    @Test
    void anObjectReadingPastWhatItWroteIsAnEofError() throws Exception {
        PieceReader r = PieceReader.open(new PieceWriter(0, 0, 0, 0).add("o", out -> out.writeInt(1)).encode());
        EOFException e = assertThrows(EOFException.class, () -> r.readInto("o", in -> {
            in.readInt();
            in.readInt();
        }));
        assertTrue(e.getMessage().contains("'o'"), e.getMessage());
    }

    @Test
    void badSectionsAreRefusedWhenAdded() {
        PieceWriter w = new PieceWriter(0, 0, 0, 0).add("a", new int[1]);
        assertThrows(IllegalArgumentException.class, () -> w.add("a", new long[1]));
        assertThrows(IllegalArgumentException.class, () -> w.add("", new long[1]));
        assertThrows(IllegalArgumentException.class, () -> new PieceWriter(-1, 0, 0, 0));
    }

    @Test
    void emptyPieceAndEmptySectionsAreFine() throws Exception {
        assertTrue(PieceReader.open(new PieceWriter(2, 0, 0, 0).encode()).sections().isEmpty());
        PieceReader r = PieceReader.open(new PieceWriter(2, 0, 0, 0).add("e", new double[0]).encode());
        r.readInto("e", new double[0]);
    }
}
