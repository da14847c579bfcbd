package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Base class for user-defined record types. A subclass describes its fields
 * with the add* methods (each returns the field's byte offset, to be used by
 * its Data accessors), and implements {@link #newData()} to return its own
 * {@link Data} view class. The MPI struct datatype is built lazily, on first
 * use, so that describing fields needs no initialized MPI.
 *
 * <p>Fields are packed one after the other with no automatic alignment, as
 * in Open MPI; {@link #setOffset(int)} skips bytes to align a field.
 */
public abstract class Struct {

    /** One field: a predefined base kind (resolved at commit) or an explicit datatype. */
    private record Field(int offset, int length, int baseCode, Datatype type) {}

    private final List<Field> fields = new ArrayList<>();
    private int extent; // bytes: end of the last field until committed, then the datatype's extent
    private Datatype datatype;
    private int paddedExtent; // 0, or the extent the committed type must have (C struct padding)

    /** Extent of one record, in bytes. Builds and commits the datatype if needed. */
    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    /** The committed struct datatype, byte based (use with byte[] or ByteBuffer). */
    public final Datatype getType() throws MPIException {
        commit();
        return datatype;
    }

    /** Creates an unpositioned Data view of this struct's subclass kind. */
    protected abstract Data newData();

    /** The record at the start of the buffer. */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return view(buffer, 0);
    }

    /** The index-th record of the buffer (byte offset index * extent). */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        return view(buffer, index * getExtent());
    }

    /** The record at the start of the array, read in native byte order. */
    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(wrap(array));
    }

    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(wrap(array), index);
    }

    private static ByteBuffer wrap(byte[] array) {
        return ByteBuffer.wrap(array).order(ByteOrder.nativeOrder());
    }

    @SuppressWarnings("unchecked")
    private <T extends Data> T view(ByteBuffer buffer, int offset) {
        Data data = newData();
        data.buffer = buffer;
        data.offset = offset;
        return (T) data;
    }

    /**
     * Places the next field at this byte offset (to leave alignment padding).
     *
     * @throws IllegalArgumentException if the offset would overlap earlier fields
     */
    public final Struct setOffset(int offset) {
        checkOpen();
        if (offset < extent) {
            throw new IllegalArgumentException("The offset must be greater or equal to the accumulated extent.");
        }
        extent = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return addBase(Datatype.BYTE, 1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return addBase(Datatype.CHAR, 2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return addBase(Datatype.SHORT, 2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return addBase(Datatype.INT, 4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return addBase(Datatype.LONG, 8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return addBase(Datatype.FLOAT, 4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return addBase(Datatype.DOUBLE, 8, length);
    }

    /** Adds a nested struct field; commits the nested struct. */
    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) throws MPIException {
        checkOpen();
        return add(new Field(extent, length, Datatype.NULL, struct.getType()), struct.getExtent() * length);
    }

    /** Adds a field of any datatype (its extent times length bytes). */
    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) throws MPIException {
        checkOpen();
        return add(new Field(extent, length, Datatype.NULL, type), type.getExtent() * type.baseSize * length);
    }

    /*
     * Predefined kinds are stored as codes, not MPI.INT etc.: MPI's static
     * initializer builds MPI.int2 and friends, and reading MPI's Datatype
     * fields from here during that initialization could see them unset.
     */
    private int addBase(int baseCode, int bytes, int length) {
        checkOpen();
        return add(new Field(extent, length, baseCode, null), bytes * length);
    }

    private int add(Field field, int bytes) {
        if (field.length() < 0) {
            throw new IllegalArgumentException("field length must not be negative: " + field.length());
        }
        fields.add(field);
        extent = field.offset() + bytes;
        return field.offset();
    }

    private void checkOpen() {
        if (datatype != null) {
            throw new AssertionError("The struct data type was committed.");
        }
    }

    /** Adds a C integer field of 2, 4 or 8 bytes (pair types get their C sizes from the platform). */
    final int addIntegral(int size) {
        return switch (size) {
            case 2 -> addShort();
            case 4 -> addInt();
            case 8 -> addLong();
            default -> throw new IllegalArgumentException("unsupported integer size " + size);
        };
    }

    /**
     * Rounds the committed type's extent up to a multiple of alignment, as a
     * C compiler pads a struct; the pair types use it so arrays of records
     * line up with MPI_DOUBLE_INT etc. (our createStruct adds no padding).
     */
    final void alignExtent(int alignment) {
        checkOpen();
        paddedExtent = (extent + alignment - 1) / alignment * alignment;
    }

    // Synchronized: the predefined pair structs (MPI.int2, ...) are shared between threads.
    private synchronized void commit() throws MPIException {
        if (datatype != null) {
            return;
        }
        int n = fields.size();
        int[] lengths = new int[n];
        int[] offsets = new int[n];
        Datatype[] types = new Datatype[n];
        for (int i = 0; i < n; i++) {
            Field f = fields.get(i);
            lengths[i] = f.length();
            offsets[i] = f.offset();
            types[i] = f.type() != null ? f.type() : predefined(f.baseCode());
        }
        Datatype type = Datatype.createStruct(lengths, offsets, types);
        if (paddedExtent > extent) {
            type = Datatype.createResized(type, 0, paddedExtent);
        }
        type.commit();
        extent = type.getExtent(); // byte based, so bytes
        datatype = type;
    }

    private static Datatype predefined(int baseCode) {
        return switch (baseCode) {
            case Datatype.BYTE -> MPI.BYTE;
            case Datatype.CHAR -> MPI.CHAR;
            case Datatype.SHORT -> MPI.SHORT;
            case Datatype.INT -> MPI.INT;
            case Datatype.LONG -> MPI.LONG;
            case Datatype.FLOAT -> MPI.FLOAT;
            case Datatype.DOUBLE -> MPI.DOUBLE;
            default -> throw new IllegalStateException("no predefined datatype for base code " + baseCode);
        };
    }

    /**
     * A view of one record inside a ByteBuffer. Subclasses add typed getters
     * and setters built on the protected accessors, which read and write at
     * (record offset + field offset [+ index * element size]) with the
     * buffer's byte order, leaving its position untouched.
     */
    public abstract class Data {

        private ByteBuffer buffer;
        private int offset;

        /** The buffer starting at this record, to pass to communication calls. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : slice(buffer, offset);
        }

        /*
         * Unlike MPI.slice, this does not clear the caller's buffer; a heap
         * slice keeps arrayOffset == offset, which is what communication uses.
         */
        private static ByteBuffer slice(ByteBuffer buffer, int at) {
            return buffer.duplicate().clear().position(at).slice().order(ByteOrder.nativeOrder());
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }

        /** The nested struct record stored in a field added with addStruct. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return nested(struct, offset + field);
        }

        /** The index-th nested record of a field added with addStruct(struct, length). */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            // addStruct committed the nested struct, so its extent is final here
            // (this signature cannot throw MPIException, so it must not commit).
            return nested(struct, offset + field + index * ((Struct) struct).extent);
        }

        @SuppressWarnings("unchecked")
        private <D extends Struct.Data> D nested(Struct struct, int at) {
            Data data = struct.newData();
            data.buffer = buffer;
            data.offset = at;
            return (D) data;
        }

        /** The buffer starting at a field added with addData (to communicate just that field). */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            return slice(buffer, offset + field);
        }

        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            return slice(buffer, offset + field + index * type.getExtent() * type.baseSize);
        }

        /** An integer of the given C size (2, 4 or 8 bytes) at a field, for the pair types. */
        final long getIntegral(int field, int size) {
            return switch (size) {
                case 2 -> getShort(field);
                case 4 -> getInt(field);
                case 8 -> getLong(field);
                default -> throw new IllegalStateException("unsupported integer size " + size);
            };
        }

        final void putIntegral(int field, int size, long v) {
            switch (size) {
                case 2 -> putShort(field, (short) v);
                case 4 -> putInt(field, (int) v);
                case 8 -> putLong(field, v);
                default -> throw new IllegalStateException("unsupported integer size " + size);
            }
        }
    }
}
