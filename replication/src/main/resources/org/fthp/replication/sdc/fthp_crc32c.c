/*
 * CRC32C (Castagnoli, reflected) fused with a copy: one pass loads each 64-byte chunk of the source, stores it to
 * the destination and folds it into the CRC, so hashing what is copied costs no second pass over the bytes.
 *
 * The CRC is kept in its register form, as java.util.zip.CRC32C keeps it (start 0xFFFFFFFF, value = ~register):
 * no inversion here, so a register handed between this code and the JDK's goes on with the same value.
 *
 * Method: eight 512-bit accumulators (512 bytes per step), each 128-bit lane folded forward by carry-less
 * multiplication (VPCLMULQDQ) with x^(D+64) and x^D mod P for a fold distance of D bits, then reduced to one
 * 128-bit lane; its 16 bytes go through the CRC32 instruction from a zero register (the CRC is linear, and the
 * register was xored into the first bytes), which performs the final 128 -> 32 bit reduction. Tails and short
 * ranges run on the CRC32 instruction alone. Constants are computed at first use from P.
 *
 * Bit order: in a reflected 128-bit lane, bit i holds the coefficient of x^(127-i): the low quadword is the
 * high-degree half. A carry-less product of two reflected 64-bit values is the reflected product times x, so
 * a multiplier for x^N is stored as x^(N-1) mod P, reflected into 64 bits.
 *
 * The kernels are compiled for their instructions only (target attributes), the rest for the baseline, so the
 * library loads anywhere; fthp_crc32c_supported says whether the CPU runs them.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define KERNEL __attribute__((target("avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,sse4.2")))

/* P without its x^32 term, normal bit order: bit j holds the coefficient of x^j. */
#define CASTAGNOLI 0x1EDC6F41u

/* Accumulators of the main fold: 512 bytes per step, enough to cover the carry-less multiply's latency. */
#define STREAMS 8
static uint64_t k_main[8];   /* lanes of the main fold, STREAMS * 64 bytes */
static uint64_t k_64[8];     /* lanes of the 64-byte fold */
static uint64_t k_lanes[8];  /* lanes 0..2 folded onto lane 3; lane 3 zero */
static int constants_ready;

/* x^n mod P, normal bit order. */
static uint32_t xpow_mod(unsigned n) {
    uint32_t r = 1;
    for (unsigned i = 0; i < n; i++) {
        r = (r & 0x80000000u) ? (r << 1) ^ CASTAGNOLI : r << 1;
    }
    return r;
}

/* The multiplier for x^n: x^(n-1) mod P reflected into 64 bits. */
static uint64_t multiplier(unsigned n) {
    uint32_t p = xpow_mod(n - 1);
    uint64_t b = 0;
    for (int j = 0; j < 32; j++) {
        if ((p >> j) & 1u) {
            b |= 1ull << (63 - j);
        }
    }
    return b;
}

/* One lane's pair for a fold by d bits: low quadword (high-degree half) by x^(d+64), high quadword by x^d. */
static void lane(uint64_t *k, int i, unsigned d) {
    k[2 * i] = multiplier(d + 64);
    k[2 * i + 1] = multiplier(d);
}

static void init_constants(void) {
    for (int i = 0; i < 4; i++) {
        lane(k_main, i, STREAMS * 64 * 8);
        lane(k_64, i, 64 * 8);
    }
    lane(k_lanes, 0, 48 * 8);
    lane(k_lanes, 1, 32 * 8);
    lane(k_lanes, 2, 16 * 8);
    k_lanes[6] = 0;
    k_lanes[7] = 0;
    __atomic_store_n(&constants_ready, 1, __ATOMIC_RELEASE);
}

KERNEL static inline __m512i fold(__m512i x, __m512i k, __m512i next) {
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00), _mm512_clmulepi64_epi128(x, k, 0x11),
                                     next, 0x96);
}

/* Short ranges and tails: eight bytes at a time through the CRC32 instruction. */
KERNEL static inline uint32_t tail(uint32_t crc, uint8_t *dst, const uint8_t *src, size_t n, int copy) {
    uint64_t crc64 = crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, src, 8);
        if (copy) {
            memcpy(dst, &v, 8);
            dst += 8;
        }
        crc64 = _mm_crc32_u64(crc64, v);
        src += 8;
        n -= 8;
    }
    crc = (uint32_t) crc64;
    while (n > 0) {
        if (copy) {
            *dst++ = *src;
        }
        crc = _mm_crc32_u8(crc, *src++);
        n--;
    }
    return crc;
}

__attribute__((always_inline)) KERNEL static inline uint32_t crc32c(uint32_t crc, uint8_t *dst, const uint8_t *src,
                                                                  size_t n, int copy) {
    if (n < 64) {
        return tail(crc, dst, src, n, copy);
    }
    if (!__atomic_load_n(&constants_ready, __ATOMIC_ACQUIRE)) {
        init_constants();
    }
    const __m512i k_64_v = _mm512_loadu_si512(k_64);
    const __m512i first = _mm512_zextsi128_si512(_mm_cvtsi32_si128((int) crc));
    __m512i x;
    if (n >= STREAMS * 64) {
        __m512i a[STREAMS];
        _Pragma("GCC unroll 16") for (int i = 0; i < STREAMS; i++) {
            a[i] = _mm512_loadu_si512(src + 64 * i);
            if (copy) {
                _mm512_storeu_si512(dst + 64 * i, a[i]);
            }
        }
        if (copy) {
            dst += STREAMS * 64;
        }
        a[0] = _mm512_xor_si512(a[0], first);
        src += STREAMS * 64;
        n -= STREAMS * 64;
        const __m512i k_main_v = _mm512_loadu_si512(k_main);
        while (n >= STREAMS * 64) {
            _Pragma("GCC unroll 16") for (int i = 0; i < STREAMS; i++) {
                __m512i y = _mm512_loadu_si512(src + 64 * i);
                if (copy) {
                    _mm512_storeu_si512(dst + 64 * i, y);
                    /* each chunk stored right after its load: a copy whose stores the compiler gathers behind
                     * all eight loads ran markedly slower from memory here */
                    __asm__ volatile("" ::: "memory");
                }
                a[i] = fold(a[i], k_main_v, y);
            }
            if (copy) {
                dst += STREAMS * 64;
            }
            src += STREAMS * 64;
            n -= STREAMS * 64;
        }
        x = a[0];
        _Pragma("GCC unroll 16") for (int i = 1; i < STREAMS; i++) {
            x = fold(x, k_64_v, a[i]);
        }
    } else {
        x = _mm512_loadu_si512(src);
        if (copy) {
            _mm512_storeu_si512(dst, x);
            dst += 64;
        }
        x = _mm512_xor_si512(x, first);
        src += 64;
        n -= 64;
    }
    while (n >= 64) {
        __m512i y = _mm512_loadu_si512(src);
        if (copy) {
            _mm512_storeu_si512(dst, y);
            dst += 64;
        }
        x = fold(x, k_64_v, y);
        src += 64;
        n -= 64;
    }
    const __m512i k_lanes_v = _mm512_loadu_si512(k_lanes);
    __m512i t = _mm512_xor_si512(_mm512_clmulepi64_epi128(x, k_lanes_v, 0x00),
                                 _mm512_clmulepi64_epi128(x, k_lanes_v, 0x11));
    __m128i r = _mm_xor_si128(_mm512_extracti32x4_epi32(t, 0), _mm512_extracti32x4_epi32(t, 1));
    r = _mm_ternarylogic_epi64(r, _mm512_extracti32x4_epi32(t, 2), _mm512_extracti32x4_epi32(x, 3), 0x96);
    uint64_t c = _mm_crc32_u64(0, (uint64_t) _mm_cvtsi128_si64(r));
    c = _mm_crc32_u64(c, (uint64_t) _mm_extract_epi64(r, 1));
    return tail((uint32_t) c, dst, src, n, copy);
}

/* Copies n bytes from src to dst (not overlapping) and returns the register after folding them into crc. */
KERNEL uint32_t fthp_crc32c_copy(uint32_t crc, uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off,
                                 int64_t n) {
    return crc32c(crc, dst + dst_off, src + src_off, (size_t) n, 1);
}

/*
 * fthp_crc32c_copy after folding a send's envelope into crc: a, b and c as 32-bit words, four zero bytes, len as a
 * 64-bit word, in the machine's (little-endian) byte order: 24 bytes, three CRC32 instructions, in the call that
 * copies the payload (a call of its own would cost more than the fold).
 */
KERNEL uint32_t fthp_crc32c_copy_sent(uint32_t crc, int32_t a, int32_t b, int32_t c, int64_t len, uint8_t *dst,
                                      int64_t dst_off, const uint8_t *src, int64_t src_off, int64_t n) {
    uint64_t r = _mm_crc32_u64(crc, (uint64_t) (uint32_t) a | (uint64_t) (uint32_t) b << 32);
    r = _mm_crc32_u64(r, (uint64_t) (uint32_t) c);
    r = _mm_crc32_u64(r, (uint64_t) len);
    return crc32c((uint32_t) r, dst + dst_off, src + src_off, (size_t) n, 1);
}

/* The register after folding n bytes of src into crc. */
KERNEL uint32_t fthp_crc32c(uint32_t crc, const uint8_t *src, int64_t src_off, int64_t n) {
    return crc32c(crc, NULL, src + src_off, (size_t) n, 0);
}

/* 1 when this CPU has the kernels' instructions; then also computes the constants, before any kernel runs. */
int fthp_crc32c_supported(void) {
    __builtin_cpu_init();
    int yes = __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul")
              && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
              && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("vpclmulqdq");
    if (yes && !__atomic_load_n(&constants_ready, __ATOMIC_ACQUIRE)) {
        init_constants();
    }
    return yes;
}

#else

uint32_t fthp_crc32c_copy(uint32_t crc, uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off,
                          int64_t n) {
    (void) dst; (void) dst_off; (void) src; (void) src_off; (void) n;
    return crc;
}

uint32_t fthp_crc32c_copy_sent(uint32_t crc, int32_t a, int32_t b, int32_t c, int64_t len, uint8_t *dst,
                               int64_t dst_off, const uint8_t *src, int64_t src_off, int64_t n) {
    (void) a; (void) b; (void) c; (void) len; (void) dst; (void) dst_off; (void) src; (void) src_off; (void) n;
    return crc;
}

uint32_t fthp_crc32c(uint32_t crc, const uint8_t *src, int64_t src_off, int64_t n) {
    (void) src; (void) src_off; (void) n;
    return crc;
}

int fthp_crc32c_supported(void) {
    return 0;
}

#endif
