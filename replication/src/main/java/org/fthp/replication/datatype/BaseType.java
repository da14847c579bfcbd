package org.fthp.replication.datatype;

import java.lang.foreign.ValueLayout;

/**
 * The primitive kinds a Java MPI buffer can hold, with the Java array type that
 * carries them and the native datatype used when the native library must
 * understand the data (reductions). Pair types live in byte buffers, as in
 * Open MPI's binding, and keep the C struct layout (padding included) so
 * native MINLOC/MAXLOC work on them in place.
 */
public enum BaseType {
    BYTE(1, byte[].class, ValueLayout.JAVA_BYTE, "MPI_BYTE", 1),
    CHAR(2, char[].class, ValueLayout.JAVA_CHAR_UNALIGNED, "MPI_UNSIGNED_SHORT", 1),
    SHORT(2, short[].class, ValueLayout.JAVA_SHORT_UNALIGNED, "MPI_SHORT", 1),
    BOOLEAN(1, boolean[].class, null, "MPI_C_BOOL", 1),
    INT(4, int[].class, ValueLayout.JAVA_INT_UNALIGNED, "MPI_INT", 1),
    LONG(8, long[].class, ValueLayout.JAVA_LONG_UNALIGNED, "MPI_INT64_T", 1),
    FLOAT(4, float[].class, ValueLayout.JAVA_FLOAT_UNALIGNED, "MPI_FLOAT", 1),
    DOUBLE(8, double[].class, ValueLayout.JAVA_DOUBLE_UNALIGNED, "MPI_DOUBLE", 1),
    PACKED(1, byte[].class, ValueLayout.JAVA_BYTE, "MPI_PACKED", 1),
    INT2(8, byte[].class, ValueLayout.JAVA_BYTE, "MPI_2INT", 8),
    SHORT_INT(8, byte[].class, ValueLayout.JAVA_BYTE, "MPI_SHORT_INT", 8),
    LONG_INT(16, byte[].class, ValueLayout.JAVA_BYTE, "MPI_LONG_INT", 8 * 2),
    FLOAT_INT(8, byte[].class, ValueLayout.JAVA_BYTE, "MPI_FLOAT_INT", 8),
    DOUBLE_INT(16, byte[].class, ValueLayout.JAVA_BYTE, "MPI_DOUBLE_INT", 16),
    FLOAT_COMPLEX(8, float[].class, ValueLayout.JAVA_FLOAT_UNALIGNED, "MPI_C_FLOAT_COMPLEX", 2),
    DOUBLE_COMPLEX(16, double[].class, ValueLayout.JAVA_DOUBLE_UNALIGNED, "MPI_C_DOUBLE_COMPLEX", 2);

    private final int bytes;
    private final Class<?> arrayClass;
    private final ValueLayout elementLayout;
    private final String nativeName;
    private final int arrayElementsPerItem;

    BaseType(int bytes, Class<?> arrayClass, ValueLayout elementLayout, String nativeName, int arrayElementsPerItem) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
        this.elementLayout = elementLayout;
        this.nativeName = nativeName;
        this.arrayElementsPerItem = arrayElementsPerItem;
    }

    /** Bytes of one item of this type in a buffer (C layout, padding included). */
    public int bytes() { return bytes; }

    /** The Java array class that can hold this type, or null if only buffers can. */
    public Class<?> arrayClass() { return arrayClass; }

    /** Layout of one Java array element, or null for boolean (copied by hand). */
    public ValueLayout elementLayout() { return elementLayout; }

    public String nativeName() { return nativeName; }

    /** Bytes of one Java array element of {@link #arrayClass()}. */
    public int arrayElementBytes() {
        return bytes / arrayElementsPerItem;
    }

    /** Alignment of the C type behind this kind (pairs: their most aligned member). */
    public int alignment() {
        return switch (this) {
            case INT2, SHORT_INT, FLOAT_INT, FLOAT_COMPLEX -> 4;
            case LONG_INT, DOUBLE_INT, DOUBLE_COMPLEX -> 8;
            default -> bytes;
        };
    }

    /** The unit Open MPI's binding reports sizes and extents in (its "baseSize"). */
    public int javaUnitBytes() {
        return arrayElementBytes();
    }
}
