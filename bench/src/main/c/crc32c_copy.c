/* The fused copy+CRC32C kernel (replication/.../sdc/fthp_crc32c.c) alone: its CRC against a bitwise CRC32C over
 * 20 000 lengths and alignments (and the copy exact, the bytes around it untouched), then what a copy costs with and
 * without the hash. Run by bench/sdc.sh (PARTS=kernel). */
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
static double cpu_now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int cmp_double(const void *a, const void *b) { double x = *(const double *) a, y = *(const double *) b; return (x > y) - (x < y); }
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
    /* thread CPU time, so load from other processes moves the figures less; the five contenders interleaved,
     * each round in a rotating order; medians of the rounds */
    const char *names[] = {"copy", "copy then crc", "64K blocks copy+crc", "fused", "crc alone"};
    size_t sizes[] = {65536, 4u << 20};
    enum { ROUNDS = 15, KINDS = 5 };
    for (int s = 0; s < 2; s++) {
        size_t n = sizes[s];
        size_t bufs = s == 0 ? 1 : 8;  /* 4 MiB: rotate over 8 sources and 8 destinations (beyond the caches) */
        uint8_t **src = malloc(bufs * sizeof *src), **dst = malloc(bufs * sizeof *dst);
        for (size_t i = 0; i < bufs; i++) { src[i] = aligned_alloc(4096, n); dst[i] = aligned_alloc(4096, n); memset(src[i], i + 1, n); memset(dst[i], 0, n); }
        long iters = s == 0 ? 20000 : 100;
        double us[KINDS][ROUNDS];
        for (int round = -2; round < ROUNDS; round++) {
            for (int j = 0; j < KINDS; j++) {
                int kind = (j + (round < 0 ? 0 : round)) % KINDS;
                double t0 = cpu_now();
                for (long i = 0; i < iters; i++) {
                    uint8_t *d = dst[i % bufs], *f = src[i % bufs];
                    switch (kind) {
                    case 0: memcpy(d, f, n); break;
                    case 1: memcpy(d, f, n); sink = fthp_crc32c(~0u, d, 0, n); break;
                    case 2: { uint32_t c = ~0u; for (size_t o = 0; o < n; o += 65536) { size_t m = n - o < 65536 ? n - o : 65536; memcpy(d + o, f + o, m); c = fthp_crc32c(c, d, o, m); } sink = c; break; }
                    case 3: sink = fthp_crc32c_copy(~0u, d, 0, f, 0, n); break;
                    default: sink = fthp_crc32c(~0u, f, 0, n); break;
                    }
                }
                if (round >= 0) us[kind][round] = (cpu_now() - t0) * 1e6 / iters;
            }
        }
        printf("%7zu B, thread CPU per call, median of %d interleaved rounds (min-max):", n, ROUNDS);
        for (int k = 0; k < KINDS; k++) {
            qsort(us[k], ROUNDS, sizeof us[k][0], cmp_double);
            printf(" %s %.2f us (%.2f-%.2f)%s", names[k], us[k][ROUNDS / 2], us[k][0], us[k][ROUNDS - 1], k + 1 < KINDS ? " |" : "\n");
        }
    }
    return bad != 0;
}
