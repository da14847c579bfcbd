package org.fthp.replication.sdc;

/**
 * The fused copy+CRC32C kernel's JNI entry ({@code fthp_crc32c_jni.c}, in the kernel's library): what
 * {@link CrcKernel} calls where the library was built with it. Registers in the form {@code java.util.zip.CRC32C}
 * keeps them; addresses of native memory; {@code array} a primitive array, {@code off} a byte offset into it. No
 * bound is checked here: {@link CrcKernel} checks them all, and hands over at most {@link CrcKernel#PIECE} bytes.
 */
final class CrcJni {

    private CrcJni() {}

    /** 1 when this CPU runs the kernel (and its constants are ready), else 0. */
    static native int supported();

    static native int copyFromArray(int crc, Object array, long srcOff, long dst, long n);

    static native int copyFromAddress(int crc, long src, long dst, long n);

    /** {@link #copyFromArray} after a send's envelope: {@code a}, {@code b}, {@code c}, four zero bytes, {@code len}. */
    static native int copySentFromArray(int crc, int a, int b, int c, long len, Object array, long srcOff, long dst,
                                        long n);

    /** {@link #copyFromAddress} after a send's envelope, as {@link #copySentFromArray}. */
    static native int copySentFromAddress(int crc, int a, int b, int c, long len, long src, long dst, long n);

    static native int foldArray(int crc, Object array, long off, long n);

    static native int foldAddress(int crc, long src, long n);
}
