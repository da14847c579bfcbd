/*
 * The fused copy+CRC32C kernel (fthp_crc32c.c, linked into the same library) as JNI methods of
 * org.fthp.replication.sdc.CrcJni. A JNI call costs the interpreter and C1 about what it costs C2, where an FFM
 * downcall's method handles are only cheap once C2 has inlined them, and it gives the JIT nothing of its own to
 * compile: a rank makes most of its sends before its digest's path would be compiled.
 *
 * The caller has checked every bound. Heap arrays are pinned by Get/ReleasePrimitiveArrayCritical for one piece
 * at most (the caller splits a long range), like the FFM critical downcall: no copy of the array is taken, and a
 * collection waits for the piece at worst.
 */
#include <jni.h>
#include <stdint.h>

uint32_t fthp_crc32c_copy(uint32_t crc, uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off,
                          int64_t n);
uint32_t fthp_crc32c_copy_sent(uint32_t crc, int32_t a, int32_t b, int32_t c, int64_t len, uint8_t *dst,
                               int64_t dst_off, const uint8_t *src, int64_t src_off, int64_t n);
uint32_t fthp_crc32c(uint32_t crc, const uint8_t *src, int64_t src_off, int64_t n);
int fthp_crc32c_supported(void);

JNIEXPORT jint JNICALL Java_org_fthp_replication_sdc_CrcJni_supported(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return fthp_crc32c_supported();
}

/* Copies n bytes of the primitive array from its byte src_off to native dst, folding them into crc. */
JNIEXPORT jint JNICALL Java_org_fthp_replication_sdc_CrcJni_copyFromArray(JNIEnv *env, jclass cls, jint crc,
        jobject array, jlong src_off, jlong dst, jlong n) {
    (void) cls;
    void *src = (*env)->GetPrimitiveArrayCritical(env, (jarray) array, NULL);
    if (src == NULL) {
        return crc; /* out of memory: an exception is pending and reaches the caller */
    }
    uint32_t r = fthp_crc32c_copy((uint32_t) crc, (uint8_t *) (intptr_t) dst, 0, (const uint8_t *) src, src_off, n);
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray) array, src, JNI_ABORT);
    return (jint) r;
}

/* Copies n bytes from native src to native dst, folding them into crc. */
JNIEXPORT jint JNICALL Java_org_fthp_replication_sdc_CrcJni_copyFromAddress(JNIEnv *env, jclass cls, jint crc,
        jlong src, jlong dst, jlong n) {
    (void) env; (void) cls;
    return (jint) fthp_crc32c_copy((uint32_t) crc, (uint8_t *) (intptr_t) dst, 0, (const uint8_t *) (intptr_t) src,
                                   0, n);
}

/* copyFromArray after folding a send's envelope (a, b, c, four zero bytes, len) into crc. */
JNIEXPORT jint JNICALL Java_org_fthp_replication_sdc_CrcJni_copySentFromArray(JNIEnv *env, jclass cls, jint crc,
        jint a, jint b, jint c, jlong len, jobject array, jlong src_off, jlong dst, jlong n) {
    (void) cls;
    void *src = (*env)->GetPrimitiveArrayCritical(env, (jarray) array, NULL);
    if (src == NULL) {
        return crc;
    }
    uint32_t r = fthp_crc32c_copy_sent((uint32_t) crc, a, b, c, len, (uint8_t *) (intptr_t) dst, 0,
                                       (const uint8_t *) src, src_off, n);
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray) array, src, JNI_ABORT);
    return (jint) r;
}

/* copyFromAddress after folding a send's envelope (a, b, c, four zero bytes, len) into crc. */
JNIEXPORT jint JNICALL Java_org_fthp_replication_sdc_CrcJni_copySentFromAddress(JNIEnv *env, jclass cls, jint crc,
        jint a, jint b, jint c, jlong len, jlong src, jlong dst, jlong n) {
    (void) env; (void) cls;
    return (jint) fthp_crc32c_copy_sent((uint32_t) crc, a, b, c, len, (uint8_t *) (intptr_t) dst, 0,
                                        (const uint8_t *) (intptr_t) src, 0, n);
}

/* Folds n bytes of the primitive array from its byte off into crc. */
JNIEXPORT jint JNICALL Java_org_fthp_replication_sdc_CrcJni_foldArray(JNIEnv *env, jclass cls, jint crc,
        jobject array, jlong off, jlong n) {
    (void) cls;
    void *src = (*env)->GetPrimitiveArrayCritical(env, (jarray) array, NULL);
    if (src == NULL) {
        return crc;
    }
    uint32_t r = fthp_crc32c((uint32_t) crc, (const uint8_t *) src, off, n);
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray) array, src, JNI_ABORT);
    return (jint) r;
}

/* Folds n bytes of native memory at src into crc. */
JNIEXPORT jint JNICALL Java_org_fthp_replication_sdc_CrcJni_foldAddress(JNIEnv *env, jclass cls, jint crc,
        jlong src, jlong n) {
    (void) env; (void) cls;
    return (jint) fthp_crc32c((uint32_t) crc, (const uint8_t *) (intptr_t) src, 0, n);
}
