package org.fthp.replication.datatype;

import java.util.Arrays;

/**
 * Where the data of one item of a datatype lies, relative to the item's start:
 * a list of byte blocks in type-map order, with the item's lower bound and
 * extent. Pure Java, so data can be packed into staging memory without the
 * native library and derived types can be rebuilt anywhere.
 *
 * <p>{@code base} is the primitive kind that decides which Java array can hold
 * the data; a struct is byte-based whatever its members, as in Open MPI's binding.
 */
public final class TypeLayout {

    private final BaseType base;
    private final long[] disps;
    private final long[] lens;
    private final long size;
    private final long lb;
    private final long extent;
    private final long trueLb;
    private final long trueExtent;
    private final int align;
    /** {@link #isDense}, decided once: every small send and receive asks. */
    private final boolean dense;
    /**
     * What one item is made of, in type-map order, for counting basic
     * elements (MPI_Get_elements): {@code partItems[i]} items of
     * {@code parts[i]}. Null for a primitive, which is one element. Kept as
     * the construction tree, not a flat list: a million-item contiguous type
     * is still one part.
     */
    private final TypeLayout[] parts;
    private final long[] partItems;
    private final long elements;

    private TypeLayout(BaseType base, long[] disps, long[] lens, long lb, long extent, int align,
                       TypeLayout[] parts, long[] partItems) {
        this.base = base;
        this.align = align;
        this.parts = parts;
        this.partItems = partItems;
        long e = parts == null ? 1 : 0;
        for (int i = 0; parts != null && i < parts.length; i++) {
            e += partItems[i] * parts[i].elements;
        }
        this.elements = e;
        this.disps = disps;
        this.lens = lens;
        long s = 0;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < lens.length; i++) {
            s += lens[i];
            lo = Math.min(lo, disps[i]);
            hi = Math.max(hi, disps[i] + lens[i]);
        }
        this.size = s;
        this.lb = lb;
        this.extent = extent;
        this.dense = lens.length == 1 && disps[0] == 0 && lens[0] == extent && lb == 0;
        this.trueLb = lens.length == 0 ? 0 : lo;
        this.trueExtent = lens.length == 0 ? 0 : hi - lo;
    }

    public static TypeLayout primitive(BaseType base) {
        return new TypeLayout(base, new long[] {0}, new long[] {base.bytes()}, 0, base.bytes(), base.alignment(),
                null, null);
    }

    public BaseType base() { return base; }
    public long size() { return size; }
    public long lb() { return lb; }
    public long extent() { return extent; }
    public long ub() { return lb + extent; }
    public long trueLb() { return trueLb; }
    public long trueExtent() { return trueExtent; }
    public int blockCount() { return lens.length; }
    public long blockDisp(int i) { return disps[i]; }
    public long blockLen(int i) { return lens[i]; }

    /** Basic (primitive) elements in one item. */
    public long elements() { return elements; }

    /**
     * The basic elements {@code bytes} of data of this type hold, as
     * MPI_Get_elements counts them: those of the whole items, then those of
     * a partial item in type-map order; -1 if the bytes end inside an element.
     */
    public long elementsIn(long bytes) {
        if (size == 0) {
            return bytes == 0 ? 0 : -1;
        }
        if (parts == null) {
            return bytes % size == 0 ? bytes / size : -1;
        }
        long count = bytes / size * elements;
        long rest = bytes % size;
        for (int i = 0; i < parts.length && rest > 0; i++) {
            TypeLayout part = parts[i];
            long whole = part.size * partItems[i];
            if (rest >= whole) {
                rest -= whole;
                count += partItems[i] * part.elements;
                continue;
            }
            long items = rest / part.size;
            long inPartial = part.elementsIn(rest - items * part.size);
            return inPartial < 0 ? -1 : count + items * part.elements + inPartial;
        }
        return rest == 0 ? count : -1;
    }

    /** The bytes {@code count} basic elements of this type take (MPI_Status_set_elements): the inverse of {@link #elementsIn}. */
    public long bytesOfElements(long count) {
        if (elements == 0) {
            return 0;
        }
        if (parts == null) {
            return count * size;
        }
        long bytes = count / elements * size;
        long rest = count % elements;
        for (int i = 0; i < parts.length && rest > 0; i++) {
            TypeLayout part = parts[i];
            long all = partItems[i] * part.elements;
            if (rest >= all) {
                rest -= all;
                bytes += partItems[i] * part.size;
                continue;
            }
            long items = rest / part.elements;
            return bytes + items * part.size + part.bytesOfElements(rest - items * part.elements);
        }
        return bytes;
    }

    /** One block starting at 0 that fills the whole extent: items are back to back. */
    public boolean isDense() {
        return dense;
    }

    // ---- constructors of derived layouts; displacements are in bytes ----

    public static TypeLayout contiguous(int count, TypeLayout old) {
        long[] d = new long[count];
        Arrays.setAll(d, k -> k * old.extent);
        return replicate(d, filled(count, 1), old);
    }

    /** Blocks of {@code blockLen} items, {@code strideBytes} apart. */
    public static TypeLayout hvector(int count, int blockLen, long strideBytes, TypeLayout old) {
        long[] d = new long[count];
        Arrays.setAll(d, k -> k * strideBytes);
        return replicate(d, filled(count, blockLen), old);
    }

    public static TypeLayout hindexed(int[] blockLens, long[] dispBytes, TypeLayout old) {
        return replicate(dispBytes.clone(), blockLens.clone(), old);
    }

    /**
     * A struct's extent is rounded up to the alignment of its most aligned
     * member, as the native library does, so arrays of records line up with C.
     */
    public static TypeLayout struct(int[] blockLens, long[] dispBytes, TypeLayout[] types) {
        Builder b = new Builder(BaseType.BYTE);
        int align = 1;
        for (int i = 0; i < types.length; i++) {
            for (int e = 0; e < blockLens[i]; e++) {
                b.addItem(dispBytes[i] + e * types[i].extent, types[i]);
            }
            if (blockLens[i] > 0) {
                align = Math.max(align, types[i].align);
            }
        }
        long[] items = new long[types.length];
        Arrays.setAll(items, i -> blockLens[i]);
        TypeLayout t = b.build(align, types.clone(), items);
        long padded = (t.extent + align - 1) / align * align;
        return new TypeLayout(t.base, t.disps, t.lens, t.lb, padded, align, t.parts, t.partItems);
    }

    public static TypeLayout resized(TypeLayout old, long lb, long extent) {
        return new TypeLayout(old.base, old.disps, old.lens, lb, extent, old.align, old.parts, old.partItems);
    }

    private static TypeLayout replicate(long[] blockDisps, int[] blockLens, TypeLayout old) {
        Builder b = new Builder(old.base);
        long items = 0;
        for (int i = 0; i < blockDisps.length; i++) {
            for (int e = 0; e < blockLens[i]; e++) {
                b.addItem(blockDisps[i] + e * old.extent, old);
            }
            items += blockLens[i];
        }
        return b.build(old.align, new TypeLayout[] {old}, new long[] {items});
    }

    private static int[] filled(int n, int v) {
        int[] a = new int[n];
        Arrays.fill(a, v);
        return a;
    }

    /** Accumulates blocks in type-map order, merging neighbours that touch. */
    private static final class Builder {
        private final BaseType base;
        private long[] d = new long[8];
        private long[] l = new long[8];
        private int n;
        private long lo = Long.MAX_VALUE;
        private long hi = Long.MIN_VALUE;

        Builder(BaseType base) {
            this.base = base;
        }

        void addItem(long at, TypeLayout t) {
            for (int i = 0; i < t.lens.length; i++) {
                add(at + t.disps[i], t.lens[i]);
            }
            lo = Math.min(lo, at + t.lb);
            hi = Math.max(hi, at + t.lb + t.extent);
        }

        private void add(long disp, long len) {
            if (len == 0) {
                return;
            }
            if (n > 0 && d[n - 1] + l[n - 1] == disp) {
                l[n - 1] += len;
                return;
            }
            if (n == d.length) {
                d = Arrays.copyOf(d, n * 2);
                l = Arrays.copyOf(l, n * 2);
            }
            d[n] = disp;
            l[n] = len;
            n++;
        }

        TypeLayout build(int align, TypeLayout[] parts, long[] partItems) {
            if (lo == Long.MAX_VALUE) {
                lo = 0;
                hi = 0;
            }
            return new TypeLayout(base, Arrays.copyOf(d, n), Arrays.copyOf(l, n), lo, hi - lo, align, parts,
                    partItems);
        }
    }
}
