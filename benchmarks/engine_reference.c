/* C reference for benchmarks/engine.py: the same k-gram hash and the same
 * (robust) winnowing as winnow's engine, written the plain C way: one pass,
 * a circular buffer of the last w hashes (the winnowing paper's Figure 5 with
 * its errata: buffer primed with the first w real hashes, backward scan from
 * r-1, advance at the end of the loop), with the listing's `% w` replaced by
 * compare-and-wrap so the reference pays for no division per step.
 *
 * usage: engine_reference FILE K W ROBUST SEED_KEY BASE
 * prints: seconds fingerprints position_checksum hash_checksum
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t fmix64(uint64_t x) {
    x ^= x >> 33; x *= 0xFF51AFD7ED558CCDULL;
    x ^= x >> 33; x *= 0xC4CEB9FE1A85EC53ULL;
    x ^= x >> 33; return x;
}
static inline uint64_t digit(uint64_t u, uint64_t key) {
    return fmix64((u + 0x9E3779B97F4A7C15ULL) ^ key);
}

int main(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: %s FILE K W ROBUST KEY BASE\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *text = malloc(n);
    if (fread(text, 1, n, f) != (size_t)n) { perror("read"); return 1; }
    fclose(f);
    int k = atoi(argv[2]), w = atoi(argv[3]), robust = atoi(argv[4]);
    uint64_t key = strtoull(argv[5], NULL, 10), base = strtoull(argv[6], NULL, 10);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long m = n - k + 1;                     /* number of k-grams */
    uint64_t bk = 1; for (int i = 0; i < k; ++i) bk *= base;
    uint64_t h = 0;
    for (int i = 0; i < k; ++i) h = (h + digit(text[i], key)) * base;
    uint64_t *buf = malloc(sizeof(uint64_t) * w);
    long count = 0; uint64_t pos_sum = 0, hash_sum = 0;
    /* prime the buffer with the first w hashes */
    long i = 0;
    for (; i < w && i < m; ++i) {
        if (i > 0) h = ((h - digit(text[i - 1], key) * bk) + digit(text[i + k - 1], key)) * base;
        buf[i] = fmix64(h ^ key);
    }
    int r = w - 1, mi = w - 1;
    for (int j = w - 2; j >= 0; --j) if (buf[j] < buf[mi]) mi = j;
    long gpos = (long)mi;                   /* global position of buf[mi] */
    count++; pos_sum += gpos; hash_sum += buf[mi];
    for (; i < m; ++i) {
        h = ((h - digit(text[i - 1], key) * bk) + digit(text[i + k - 1], key)) * base;
        if (++r == w) r = 0;                /* no division on the hot path */
        buf[r] = fmix64(h ^ key);
        if (mi == r) {                      /* the old minimum left the window: rescan */
            int best = r;
            for (int j = r == 0 ? w - 1 : r - 1; j != r; j = j == 0 ? w - 1 : j - 1)
                if (buf[j] < buf[best]) best = j;
            mi = best;
            gpos = i - (r >= mi ? r - mi : r - mi + w);
            count++; pos_sum += gpos; hash_sum += buf[mi];
        } else if (robust ? buf[r] < buf[mi] : buf[r] <= buf[mi]) {
            mi = r; gpos = i;
            count++; pos_sum += gpos; hash_sum += buf[mi];
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.6f %ld %llu %llu\n", secs, count, (unsigned long long)pos_sum,
           (unsigned long long)hash_sum);
    free(buf); free(text);
    return 0;
}
