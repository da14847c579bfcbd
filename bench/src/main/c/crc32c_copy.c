#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
uint32_t fthp_crc32c_copy(uint32_t crc, uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off, int64_t n);
uint32_t fthp_crc32c(uint32_t crc, const uint8_t *src, int64_t src_off, int64_t n);
int fthp_crc32c_supported(void);
static uint32_t ref(uint32_t crc, const uint8_t *p, size_t n) {
    while (n--) { crc ^= *p++; for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0x82F63B78u & -(crc & 1)); }
    return crc;
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static volatile uint32_t sink;
int main(void) {
    printf("supported %d\n", fthp_crc32c_supported());
    srand(7);
    size_t max = 70000;
    uint8_t *a = malloc(max + 64), *b = malloc(max + 64), *c = malloc(max + 64);
    for (size_t i = 0; i < max + 64; i++) a[i] = rand();
    printf("crc32c(\"123456789\") = %08x (want e3069283)\n", ~fthp_crc32c(~0u, (const uint8_t *) "123456789", 0, 9));
    int bad = 0;
    for (int t = 0; t < 20000; t++) {
        size_t n = t < 2000 ? t : rand() % max;
        size_t so = rand() % 64, d = rand() % 64;
        uint32_t init = rand();
        memset(b, 0xAB, max + 64);
        uint32_t want = ref(init, a + so, n);
        uint32_t got = fthp_crc32c_copy(init, b, d, a, so, n);
        uint32_t got2 = fthp_crc32c(init, a, so, n);
        if (got != want || got2 != want || memcmp(b + d, a + so, n) || (d > 0 && b[d - 1] != 0xAB) || b[d + n] != 0xAB) {
            if (bad++ < 5) printf("MISMATCH n=%zu so=%zu d=%zu want %08x got %08x %08x\n", n, so, d, want, got, got2);
        }
    }
    printf("correctness: %d bad of 20000\n", bad);
    size_t sizes[] = {65536, 4u << 20};
    for (int s = 0; s < 2; s++) {
        size_t n = sizes[s];
        size_t bufs = s == 0 ? 1 : 8;  /* 4 MiB: rotate over 8 sources and 8 destinations (beyond the caches) */
        uint8_t **src = malloc(bufs * sizeof *src), **dst = malloc(bufs * sizeof *dst);
        for (size_t i = 0; i < bufs; i++) { src[i] = aligned_alloc(4096, n); dst[i] = aligned_alloc(4096, n); memset(src[i], i + 1, n); memset(dst[i], 0, n); }
        long iters = s == 0 ? 200000 : 400;
        for (int round = 0; round < 3; round++) {
            double t0 = now();
            for (long i = 0; i < iters; i++) memcpy(dst[i % bufs], src[i % bufs], n);
            double t1 = now();
            for (long i = 0; i < iters; i++) { memcpy(dst[i % bufs], src[i % bufs], n); sink = fthp_crc32c(~0u, dst[i % bufs], 0, n); }
            double t2 = now();
            for (long i = 0; i < iters; i++) { uint32_t c = ~0u; for (size_t o = 0; o < n; o += 65536) { size_t m = n - o < 65536 ? n - o : 65536; memcpy(dst[i % bufs] + o, src[i % bufs] + o, m); c = fthp_crc32c(c, dst[i % bufs], o, m); } sink = c; }
            double t3 = now();
            for (long i = 0; i < iters; i++) sink = fthp_crc32c_copy(~0u, dst[i % bufs], 0, src[i % bufs], 0, n);
            double t4 = now();
            for (long i = 0; i < iters; i++) sink = fthp_crc32c(~0u, src[i % bufs], 0, n);
            double t5 = now();
            double u = 1e6 / iters;
            printf("%7zu B: copy %.2f us | copy then crc %.2f us | 64K blocks copy+crc %.2f us | fused %.2f us | crc alone %.2f us (%.1f GB/s)\n",
                   n, (t1 - t0) * u, (t2 - t1) * u, (t3 - t2) * u, (t4 - t3) * u, (t5 - t4) * u, n / ((t5 - t4) * u) / 1e3);
        }
    }
    return bad != 0;
}
