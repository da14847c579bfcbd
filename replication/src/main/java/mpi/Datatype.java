package mpi;

import org.fthp.empi.Empi;
import org.fthp.replication.datatype.BaseType;
import org.fthp.replication.datatype.TypeLayout;

/**
 * A datatype as the program sees it: its layout is kept in Java
 * ({@link TypeLayout}), so packing needs no native call and a derived type
 * survives a rebuild of the native structures. Sizes and extents are reported
 * in units of the base type, as Open MPI's binding does.
 */
public final class Datatype implements Freeable, Cloneable {

    protected static final int NULL = 0;
    protected static final int BYTE = 1;
    protected static final int CHAR = 2;
    protected static final int SHORT = 3;
    protected static final int BOOLEAN = 4;
    protected static final int INT = 5;
    protected static final int LONG = 6;
    protected static final int FLOAT = 7;
    protected static final int DOUBLE = 8;
    protected static final int PACKED = 9;
    protected static final int INT2 = 10;
    protected static final int SHORT_INT = 11;
    protected static final int LONG_INT = 12;
    protected static final int FLOAT_INT = 13;
    protected static final int DOUBLE_INT = 14;
    protected static final int FLOAT_COMPLEX = 15;
    protected static final int DOUBLE_COMPLEX = 16;

    /** Kept for binary compatibility; the facade never exposes native handles. */
    protected long handle;
    protected int baseType;
    protected int baseSize;

    private TypeLayout layout;
    private final boolean predefined;
    private boolean committed;
    private boolean freed;
    private String name = "";
    private long nativeHandle;

    protected Datatype() {
        this.predefined = true;
    }

    private Datatype(int baseType, BaseType kind, TypeLayout layout, boolean predefined, String name) {
        this.baseType = baseType;
        this.baseSize = kind == null ? 0 : kind.javaUnitBytes();
        this.layout = layout;
        this.predefined = predefined;
        this.committed = predefined;
        this.name = name;
        this.handle = baseType;
    }

    static Datatype predefined(int code, BaseType kind, String name) {
        return new Datatype(code, kind, kind == null ? null : TypeLayout.primitive(kind), true, name);
    }

    private static Datatype derived(Datatype old, TypeLayout layout) {
        int code = old.baseType;
        BaseType kind = layout.base();
        if (code >= INT2 && code <= DOUBLE_INT || code == PACKED) {
            code = BYTE;
        }
        Datatype t = new Datatype(code, kind, layout, false, "");
        t.baseSize = old.baseSize;
        return t;
    }

    /** The layout, checked usable for communication. */
    TypeLayout layoutChecked() throws MPIException {
        if (freed) {
            throw Errors.error(MPI.ERR_TYPE, "datatype has been freed");
        }
        if (layout == null) {
            throw Errors.error(MPI.ERR_TYPE, "MPI.DATATYPE_NULL cannot describe data");
        }
        return layout;
    }

    TypeLayout layoutForCommunication() throws MPIException {
        TypeLayout l = layout;
        if (committed && !freed && l != null) {
            return l;   // every call of the program asks: one method, not two
        }
        l = layoutChecked();
        if (!committed) {
            throw Errors.error(MPI.ERR_TYPE, "datatype is not committed (call commit() before using it)");
        }
        return l;
    }

    /** The native datatype of one base element, for reductions in the native library. */
    long nativeBase() {
        if (nativeHandle == 0) {
            nativeHandle = Empi.handle(layout.base().nativeName());
        }
        return nativeHandle;
    }

    BaseType kind() {
        return layout == null ? null : layout.base();
    }

    private int units(long bytes) {
        return baseSize == 0 ? 0 : (int) (bytes / baseSize);
    }

    public int getLb() throws MPIException {
        MPI.check();
        return units(layoutChecked().lb());
    }

    public int getExtent() throws MPIException {
        MPI.check();
        return units(layoutChecked().extent());
    }

    public int getTrueLb() throws MPIException {
        MPI.check();
        return units(layoutChecked().trueLb());
    }

    public int getTrueExtent() throws MPIException {
        MPI.check();
        return units(layoutChecked().trueExtent());
    }

    public int getSize() throws MPIException {
        MPI.check();
        return units(layoutChecked().size());
    }

    public void commit() throws MPIException {
        MPI.check();
        layoutChecked();
        committed = true;
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw Errors.error(MPI.ERR_TYPE, "a predefined datatype cannot be freed");
        }
        freed = true;
    }

    public boolean isNull() {
        return layout == null || freed;
    }

    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    public Datatype dup() throws MPIException {
        MPI.check();
        Datatype t = derived(this, layoutChecked());
        t.baseType = baseType;
        t.committed = committed;
        return t;
    }

    private static Datatype oldChecked(Datatype oldType) throws MPIException {
        if (oldType == null) {
            throw Errors.error(MPI.ERR_TYPE, "old datatype is null");
        }
        oldType.layoutChecked();
        return oldType;
    }

    private static void nonNegative(int v, String what) throws MPIException {
        if (v < 0) {
            throw Errors.error(MPI.ERR_COUNT, what + " must not be negative (" + v + ")");
        }
    }

    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        MPI.check();
        nonNegative(count, "count");
        Datatype old = oldChecked(oldType);
        return derived(old, TypeLayout.contiguous(count, old.layout));
    }

    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        MPI.check();
        nonNegative(count, "count");
        nonNegative(blockLength, "block length");
        Datatype old = oldChecked(oldType);
        return derived(old, TypeLayout.hvector(count, blockLength, stride * old.layout.extent(), old.layout));
    }

    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        MPI.check();
        nonNegative(count, "count");
        nonNegative(blockLength, "block length");
        Datatype old = oldChecked(oldType);
        return derived(old, TypeLayout.hvector(count, blockLength, stride, old.layout));
    }

    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        MPI.check();
        Datatype old = oldChecked(oldType);
        long[] bytes = byteDisplacements(blockLengths, displacements, old.layout.extent());
        return derived(old, TypeLayout.hindexed(blockLengths, bytes, old.layout));
    }

    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        MPI.check();
        Datatype old = oldChecked(oldType);
        long[] bytes = byteDisplacements(blockLengths, displacements, 1);
        return derived(old, TypeLayout.hindexed(blockLengths, bytes, old.layout));
    }

    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        MPI.check();
        if (types == null) {
            throw Errors.error(MPI.ERR_ARG, "struct member types are null");
        }
        long[] bytes = byteDisplacements(blockLengths, displacements, 1);
        if (types.length != blockLengths.length) {
            throw Errors.error(MPI.ERR_ARG, "struct needs as many types as block lengths");
        }
        TypeLayout[] layouts = new TypeLayout[types.length];
        for (int i = 0; i < types.length; i++) {
            layouts[i] = oldChecked(types[i]).layout;
        }
        Datatype t = new Datatype(BYTE, BaseType.BYTE, TypeLayout.struct(blockLengths, bytes, layouts), false, "");
        return t;
    }

    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        MPI.check();
        Datatype old = oldChecked(oldType);
        nonNegative(extent, "extent");
        return derived(old, TypeLayout.resized(old.layout, lb, extent));
    }

    private static long[] byteDisplacements(int[] blockLengths, int[] displacements, long unit) throws MPIException {
        if (blockLengths == null || displacements == null) {
            throw Errors.error(MPI.ERR_ARG, "block lengths and displacements must not be null");
        }
        if (blockLengths.length != displacements.length) {
            throw Errors.error(MPI.ERR_ARG, "block lengths (" + blockLengths.length
                    + ") and displacements (" + displacements.length + ") differ in length");
        }
        long[] out = new long[displacements.length];
        for (int i = 0; i < out.length; i++) {
            nonNegative(blockLengths[i], "block length");
            out[i] = displacements[i] * unit;
        }
        return out;
    }

    public void setName(String name) throws MPIException {
        MPI.check();
        this.name = name == null ? "" : name;
    }

    public String getName() throws MPIException {
        MPI.check();
        return name;
    }

    public static int createKeyval() throws MPIException {
        return Attributes.TYPE_KEYVALS.create();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        Attributes.TYPE_KEYVALS.free(keyval);
    }

    private final Attributes attributes = new Attributes(Attributes.TYPE_KEYVALS);

    public void setAttr(int keyval, Object value) throws MPIException {
        MPI.check();
        attributes.set(keyval, value);
    }

    public Object getAttr(int keyval) throws MPIException {
        MPI.check();
        return attributes.get(keyval);
    }

    public void deleteAttr(int keyval) throws MPIException {
        MPI.check();
        attributes.delete(keyval);
    }

    protected int getOffset(Object buffer) {
        return buffer instanceof java.nio.Buffer b && b.hasArray() ? baseSize * b.arrayOffset() : 0;
    }

    @Override
    public String toString() {
        return name.isEmpty() ? "Datatype(" + (layout == null ? "null" : layout.base()) + ")" : name;
    }
}
