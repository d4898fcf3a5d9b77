/* SPDX-License-Identifier: MIT */
/* The per-instruction hook of the leakage model (leak.py) in C: the same work as its
 * Python hook (copy r0-r12, sp, lr and the address into the capture buffers, close the
 * window at its end address or cap), without a call into Python per instruction.
 * leak.py compiles it with the host C compiler on first use and falls back to the
 * Python hook if that fails. unicorn's functions come in through the struct, so no
 * unicorn header or library is needed to build it. */
#include <stdint.h>

#define LEAK_NREGS 15

typedef int (*leak_read_batch)(void *uc, int *ids, void **vals, int count);
typedef int (*leak_emu_stop)(void *uc);

/* Layout mirrored by leak.py's _NativeCapture (ctypes). */
struct leak_capture {
    leak_read_batch read_batch;
    leak_emu_stop emu_stop;
    uint32_t *rows;          /* (cap + 2) rows of 16 words: r0-r12, sp, lr, (pc) */
    uint32_t *pcs;           /* cap + 2 addresses */
    int64_t end;             /* close when this address is reached; -1: none */
    uint32_t n;              /* rows recorded */
    uint32_t cap;            /* instructions; the window closes at row cap */
    int32_t stop;            /* call emu_stop when the window closes */
    int32_t closed;
    int ids[LEAK_NREGS];     /* unicorn register ids */
};

void leak_hook(void *uc, uint64_t addr, uint32_t size, void *user);

void leak_hook(void *uc, uint64_t addr, uint32_t size, void *user)
{
    struct leak_capture *c = (struct leak_capture *)user;
    uint32_t *row;
    void *vals[LEAK_NREGS];
    int i;
    (void)size;
    if (c->closed)
        return;
    row = c->rows + 16u * c->n;
    for (i = 0; i < LEAK_NREGS; i++)
        vals[i] = row + i;
    c->read_batch(uc, c->ids, vals, LEAK_NREGS);
    c->pcs[c->n] = (uint32_t)addr;
    c->n++;
    if (c->n > c->cap || (int64_t)addr == c->end) {
        c->closed = 1;
        if (c->stop)
            c->emu_stop(uc);
    }
}
