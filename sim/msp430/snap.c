// SPDX-License-Identifier: MIT
// Reference state snapshots (snap.h). A record is everything later execution can
// depend on: the registers, the cycle count (the multiplier's ready times and the
// cycle counter are absolute), the stack checks' state, the console byte count, the
// multiplier, the plain peripheral registers and every RAM and FRAM byte (code
// included: a faulted store can write there). Comparison is exact (memcmp), never a
// hash, so a match cannot be a collision.
#define _POSIX_C_SOURCE 200809L // mmap, fileno
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "mem.h"
#include "mpy.h"
#include "sim.h"
#include "snap.h"

uint64_t snap_every;
int snap_reading;

typedef struct {
    uint32_t r[16];
    uint64_t cyc, console;
    uint32_t stack_limit, stack_floor;
    int32_t stack_auto;
    uint32_t cyc_hi_latch;
} snap_head_t;

typedef struct {
    char magic[8];
    uint64_t every, rec_size;
} snap_file_t;

static FILE *out;
static const uint8_t *in_map;
static size_t in_size, nrec, rec_size;

static void head(snap_head_t *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->r, M.r, sizeof h->r);
    h->cyc = M.cyc;
    h->console = M.console_bytes;
    h->stack_limit = M.stack_limit;
    h->stack_floor = M.stack_floor;
    h->stack_auto = M.stack_auto;
    h->cyc_hi_latch = M.cyc_hi_latch;
}

// The record's parts after the head, in order: (pointer, length).
static int parts(const uint8_t **p, size_t *n, int max)
{
    int k = 0;
    size_t len;
    p[k] = mpy_state(&len);
    n[k++] = len;
    p[k] = periph_state(&len);
    n[k++] = len;
    for (uint32_t pg = 0; pg < (MEM_SIZE >> 8) && k < max;) { // runs of RAM/FRAM pages
        if (page_kind[pg] != PG_RAM && page_kind[pg] != PG_FRAM) {
            pg++;
            continue;
        }
        uint32_t e = pg;
        while (e < (MEM_SIZE >> 8) && (page_kind[e] == PG_RAM || page_kind[e] == PG_FRAM)) e++;
        p[k] = mem + ((size_t)pg << 8);
        n[k++] = (size_t)(e - pg) << 8;
        pg = e;
    }
    return k;
}

#define MAXPARTS 16

static size_t record_size(void)
{
    const uint8_t *p[MAXPARTS];
    size_t n[MAXPARTS], s = sizeof(snap_head_t);
    int k = parts(p, n, MAXPARTS);
    for (int i = 0; i < k; i++) s += n[i];
    return s;
}

const char *snap_open_out(const char *path, uint64_t every)
{
    if (!every) return "--fault-snap-every: K > 0";
    if (!(out = fopen(path, "wb"))) return "cannot write the snapshot file";
    snap_file_t f = { "MBSNAP1", every, record_size() };
    if (fwrite(&f, sizeof f, 1, out) != 1) return "cannot write the snapshot file";
    snap_every = every;
    snap_reading = 0;
    return NULL;
}

const char *snap_open_in(const char *path)
{
    FILE *f = fopen(path, "rb");
    snap_file_t h;
    if (!f) return "cannot read the snapshot file";
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, "MBSNAP1", 8) || !h.every ||
        h.rec_size != record_size()) {
        fclose(f);
        return "bad snapshot file (or another memory map)";
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    void *m = size > 0 ? mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fileno(f), 0) : MAP_FAILED;
    fclose(f);
    if (m == MAP_FAILED) return "cannot map the snapshot file";
    in_map = m;
    in_size = (size_t)size;
    rec_size = (size_t)h.rec_size;
    nrec = (in_size - sizeof h) / rec_size;
    snap_every = h.every;
    snap_reading = 1;
    return NULL;
}

void snap_write(void)
{
    const uint8_t *p[MAXPARTS];
    size_t n[MAXPARTS];
    snap_head_t h;
    head(&h);
    fwrite(&h, sizeof h, 1, out);
    int k = parts(p, n, MAXPARTS);
    for (int i = 0; i < k; i++) fwrite(p[i], 1, n[i], out);
}

int snap_equal(uint64_t index)
{
    uint64_t r = index / snap_every;
    if (r >= nrec) return 0;
    const uint8_t *rec = in_map + sizeof(snap_file_t) + r * rec_size;
    snap_head_t h;
    head(&h);
    if (memcmp(&h, rec, sizeof h)) return 0; // registers first: most diverged runs stop here
    rec += sizeof h;
    const uint8_t *p[MAXPARTS];
    size_t n[MAXPARTS];
    int k = parts(p, n, MAXPARTS);
    for (int i = 0; i < k; i++) {
        if (memcmp(p[i], rec, n[i])) return 0;
        rec += n[i];
    }
    return 1;
}

void snap_close(void)
{
    if (out) fclose(out);
    out = NULL;
}
