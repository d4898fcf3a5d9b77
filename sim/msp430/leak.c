// SPDX-License-Identifier: MIT
// The leakage model's window, noise and output, and the batch driver (leak.h).
// Samples are one per instruction (not per cycle): constant-time code executes the same
// instruction sequence for every input, so sample i is the same instruction in every
// trace without any alignment, and a window holds three times more of the ladder.
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "leak.h"
#include "sim.h"

leak_opts_t LEAK = { .full = UINT64_MAX };
int leak_on;
uint32_t leak_acc;
uint32_t leak_bus;

static FILE *out;
static int state;          // 0 before the window, 1 inside, 2 after
static int run_full;       // this run goes on after its window
static int stopped;        // this run was ended at its window's end
static uint64_t count;     // samples of this run
static uint64_t rng;       // splitmix64 state of this run's noise
static int have_spare;
static double spare;

static unsigned char obuf[1 << 16];
static size_t olen;

static void oflush(void)
{
    if (olen && fwrite(obuf, 1, olen, out) != olen) {
        fprintf(stderr, "msp430sim: cannot write %s\n", LEAK.path);
        exit(ST_USAGE);
    }
    olen = 0;
}

static void emit(double x)
{
    if (olen > sizeof obuf - 4) oflush();
    if (LEAK.u8) {
        obuf[olen++] = (unsigned char)(x <= 0 ? 0 : x >= 255 ? 255 : (int)(x + 0.5));
        return;
    }
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    for (int i = 0; i < 4; i++) obuf[olen++] = (unsigned char)(u >> (8 * i)); // little-endian
}

static uint64_t splitmix(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// ln and sqrt here, not from libm: the simulator and the fuzz harness built from its
// sources link no libm. ln(x) = e ln 2 + 2 atanh((m - 1) / (m + 1)), x = m 2^e,
// m in [sqrt(1/2), sqrt(2)): |z| < 0.18, 13 terms reach double precision.
static double ln(double x)
{
    uint64_t b;
    memcpy(&b, &x, 8);
    int e = (int)((b >> 52) & 0x7FF) - 1023;
    b = (b & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
    double m;
    memcpy(&m, &b, 8);
    if (m > 1.4142135623730951) {
        m *= 0.5;
        e++;
    }
    double z = (m - 1) / (m + 1), z2 = z * z, t = z, s = 0;
    for (int k = 1; k < 27; k += 2, t *= z2) s += t / k;
    return e * 0.6931471805599453 + 2 * s;
}

static double root(double x) // x > 0: Newton from x itself, then to convergence
{
    double y = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++) {
        double n = 0.5 * (y + x / y);
        if (n >= y) break;
        y = n;
    }
    return y;
}

// Standard normal deviate: Marsaglia's polar method, both values used.
static double gauss(void)
{
    if (have_spare) {
        have_spare = 0;
        return spare;
    }
    double u, v, s;
    do {
        u = (double)(splitmix() >> 11) / 4503599627370496.0 - 1; // [-1, 1)
        v = (double)(splitmix() >> 11) / 4503599627370496.0 - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double f = root(-2 * ln(s) / s);
    spare = v * f;
    have_spare = 1;
    return u * f;
}

static void close_window(void)
{
    state = 2;
    leak_on = 0; // nothing more to record: the rest of the run at full speed
    if (!run_full) {
        stopped = 1;
        M.halted = 1;
    }
}

void leak_step(uint32_t pc0)
{
    uint32_t acc = leak_acc;
    leak_acc = 0;
    if (state == 0) {
        if (LEAK.have_window && pc0 != LEAK.begin) return;
        state = 1;
    }
    if (LEAK.have_window && LEAK.end && pc0 == LEAK.end) {
        close_window();
        return;
    }
    emit(LEAK.sigma > 0 ? acc + LEAK.sigma * gauss() : acc);
    if (++count >= LEAK.max_samples) close_window();
}

// Record i's run: model state, window and noise from their start.
static void start_run(uint64_t i)
{
    leak_on = 1;
    leak_acc = leak_bus = 0;
    state = 0;
    stopped = 0;
    count = 0;
    run_full = i < LEAK.full;
    rng = LEAK.seed + i;
    rng = splitmix(); // decorrelate neighbouring seeds
    have_spare = 0;
}

static uint8_t *snapshot;  // RAM and FRAM as loaded, restored before each record
#define SNAP_END 0x14000u  // end of the FRAM above 64 KB (mem.c's map)

static int run_batch(void (*boot)(void))
{
    FILE *f = fopen(LEAK.batch, "rb");
    if (!f) {
        fprintf(stderr, "msp430sim: cannot read %s\n", LEAK.batch);
        return ST_USAGE;
    }
    uint32_t a = LEAK.patch_addr, n = LEAK.patch_len;
    for (uint32_t x = a; x < a + n; x++) {
        int k = x < MEM_SIZE ? page_kind[x >> 8] : PG_NONE;
        if (k != PG_RAM && k != PG_FRAM) {
            fprintf(stderr, "msp430sim: --leak-patch 0x%05x:%u is not in RAM/FRAM\n", a, n);
            fclose(f);
            return ST_USAGE;
        }
    }
    snapshot = malloc(SNAP_END);
    uint8_t *rec = malloc(n);
    if (!snapshot || !rec) {
        fprintf(stderr, "msp430sim: out of memory\n");
        exit(ST_USAGE);
    }
    memcpy(snapshot, mem, SNAP_END);
    int rc = 0;
    for (uint64_t i = 0;; i++) {
        size_t got = fread(rec, 1, n, f);
        if (got == 0) break;
        if (got != n) {
            fprintf(stderr, "msp430sim: %s: its size is not a multiple of %u\n", LEAK.batch, n);
            rc = ST_USAGE;
            break;
        }
        memcpy(mem, snapshot, SNAP_END);
        memcpy(mem + a, rec, n);
        boot();
        start_run(i);
        cpu_run();
        for (uint64_t k = count; k < LEAK.max_samples; k++) emit(0); // fixed stride
        // the console's end may lack a newline: the record line starts with one
        printf("\nleak-record %llu status ", (unsigned long long)i);
        if (stopped) printf("stop");
        else printf("%d", M.exit_status);
        printf(" samples %llu cycles %llu\n", (unsigned long long)count, (unsigned long long)M.cyc);
    }
    fclose(f);
    free(rec);
    free(snapshot);
    return rc;
}

int leak_main(void (*boot)(void))
{
    out = fopen(LEAK.path, "wb");
    if (!out) {
        fprintf(stderr, "msp430sim: cannot write %s\n", LEAK.path);
        return ST_USAGE;
    }
    int rc;
    if (LEAK.batch) {
        rc = run_batch(boot);
    } else { // the image is booted already
        start_run(0);
        cpu_run();
        rc = M.exit_status;
        fprintf(stderr, "leak-samples: %llu\n", (unsigned long long)count);
    }
    oflush();
    if (fclose(out) != 0) {
        fprintf(stderr, "msp430sim: cannot write %s\n", LEAK.path);
        return ST_USAGE;
    }
    return rc;
}
