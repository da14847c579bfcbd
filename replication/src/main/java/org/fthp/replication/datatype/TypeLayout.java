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

    private TypeLayout(BaseType base, long[] disps, long[] lens, long lb, long extent, int align) {
        this.base = base;
        this.align = align;
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
        this.trueLb = lens.length == 0 ? 0 : lo;
        this.trueExtent = lens.length == 0 ? 0 : hi - lo;
    }

    public static TypeLayout primitive(BaseType base) {
        return new TypeLayout(base, new long[] {0}, new long[] {base.bytes()}, 0, base.bytes(), base.alignment());
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

    /** One block starting at 0 that fills the whole extent: items are back to back. */
    public boolean isDense() {
        return lens.length == 1 && disps[0] == 0 && lens[0] == extent && lb == 0;
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
        TypeLayout t = b.build(align);
        long padded = (t.extent + align - 1) / align * align;
        return new TypeLayout(t.base, t.disps, t.lens, t.lb, padded, align);
    }

    public static TypeLayout resized(TypeLayout old, long lb, long extent) {
        return new TypeLayout(old.base, old.disps, old.lens, lb, extent, old.align);
    }

    private static TypeLayout replicate(long[] blockDisps, int[] blockLens, TypeLayout old) {
        Builder b = new Builder(old.base);
        for (int i = 0; i < blockDisps.length; i++) {
            for (int e = 0; e < blockLens[i]; e++) {
                b.addItem(blockDisps[i] + e * old.extent, old);
            }
        }
        return b.build(old.align);
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

        TypeLayout build(int align) {
            if (lo == Long.MAX_VALUE) {
                lo = 0;
                hi = 0;
            }
            return new TypeLayout(base, Arrays.copyOf(d, n), Arrays.copyOf(l, n), lo, hi - lo, align);
        }
    }
}
