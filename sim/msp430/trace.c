// SPDX-License-Identifier: MIT
// Hash: FNV-1a 64 over one little-endian 32-bit word per event, (kind << 20) | addr.
// File (text): one line per instruction, "PPPPP" then " rAAAAA" / " wAAAAA" per data
// access, all hex.
#include "sim.h"
#include "trace.h"

static char tbuf[1 << 16];
static size_t tlen;
static const char hexd[] = "0123456789abcdef";

static void tflush(void)
{
    if (M.trace_file && tlen) fwrite(tbuf, 1, tlen, M.trace_file);
    tlen = 0;
}

void trace_event(uint32_t kind, uint32_t addr)
{
    uint32_t w = (kind << 20) | (addr & ADDR_MASK);
    uint64_t h = M.trace_hash;
    for (int i = 0; i < 4; i++) {
        h ^= (w >> (8 * i)) & 0xFFu;
        h *= 0x100000001b3ull;
    }
    M.trace_hash = h;
    if (!M.trace_file) return;
    if (tlen > sizeof tbuf - 16) tflush();
    char *p = tbuf + tlen;
    if (kind == TR_PC) {
        if (M.insns) *p++ = '\n';
    } else {
        *p++ = ' ';
        *p++ = kind == TR_RD ? 'r' : 'w';
    }
    for (int s = 16; s >= 0; s -= 4) *p++ = hexd[(addr >> s) & 0xFu];
    tlen = (size_t)(p - tbuf);
}

void trace_finish(void)
{
    if (M.trace_file) {
        if (tlen < sizeof tbuf) tbuf[tlen++] = '\n';
        tflush();
        fclose(M.trace_file);
        M.trace_file = NULL;
    }
    fprintf(stderr, "trace-hash: %016llx\n", (unsigned long long)M.trace_hash);
    M.trace = 0;
}
