// SPDX-License-Identifier: MIT
// --profile: every instruction's cycles go to the function holding its address
// ("self", exclusive), so code that jumps from one function into another is charged
// where it runs. Calls are seen as CALL/CALLA; a shadow call stack keyed on SP ends an
// activation when SP rises above the slot holding its return address, which covers
// RET, RETA, RETI and any other way of dropping the return address. "inclusive" is
// the cycles from the end of the call to the end of the return, counted only for the
// outermost activation of a recursive function; the function the run starts in
// counts as one activation of the whole run (0 calls). The output matches
// `motebox sim m4 --profile` (motebox_tools/sim/m4/profile.py), sorted by self.
//
// Function of an address: the function symbol holding it, else the nearest local
// code label before it, else "(no symbol)". Function symbols are STT_FUNC and global
// STT_NOTYPE labels (assembly entry points without .type); each covers st_size bytes,
// or, without a size, up to the next function symbol or its section's end, so local
// labels inside a routine (loops) do not split it.
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "sim.h"

typedef struct {
    char *name;
    uint32_t addr, end, size, sec_end;
    int entry, is_func, id; // entry: a function symbol (STT_FUNC, or global label)
} sym_t;

typedef struct {
    const char *name;
    uint64_t calls, self, incl, insns;
    uint32_t active; // activations on the shadow stack
} fstat_t;

typedef struct {
    uint32_t slot;   // address of the return address (SP after the call)
    int fn, outer;
    uint64_t start;  // M.cyc when the call completed
} frame_t;

static sym_t *syms;
static size_t nsyms, capsyms;
static sym_t *funcs, *labels; // views into syms (function symbols, local labels), by address
static size_t nfuncs, nlabels;
static fstat_t *st;
static size_t nst;
static frame_t *stk;
static size_t depth, capstk;
static uint32_t c_lo, c_hi; // the last lookup holds for [c_lo, c_hi)
static int c_fn;
static FILE *out;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "msp430sim: out of memory (--profile)\n");
        exit(ST_USAGE);
    }
    return p;
}

void profile_symbol(const char *name, uint32_t addr, uint32_t size, int is_func, int is_global,
                    uint32_t sec_end)
{
    if (nsyms == capsyms) {
        capsyms = capsyms ? 2 * capsyms : 256;
        syms = xrealloc(syms, capsyms * sizeof *syms);
    }
    size_t n = strlen(name) + 1;
    sym_t *s = &syms[nsyms++];
    s->name = memcpy(xrealloc(NULL, n), name, n);
    s->addr = addr & ~1u;
    s->size = size;
    s->sec_end = sec_end;
    s->is_func = is_func;
    s->entry = is_func || is_global;
}

// Function symbols before local labels; by address; at one address a sized symbol,
// then STT_FUNC, then by name (the first is the one kept).
static int sym_cmp(const void *pa, const void *pb)
{
    const sym_t *a = pa, *b = pb;
    if (a->entry != b->entry) return b->entry - a->entry;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    if ((a->size != 0) != (b->size != 0)) return a->size ? -1 : 1;
    if (a->is_func != b->is_func) return b->is_func - a->is_func;
    return strcmp(a->name, b->name);
}

// Keeps the first symbol at each address of v[0..n); returns the new count.
static size_t dedup(sym_t *v, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || v[i].addr != v[k - 1].addr) v[k++] = v[i];
    return k;
}

static int intern(const char *name)
{
    for (size_t i = 0; i < nst; i++)
        if (!strcmp(st[i].name, name)) return (int)i;
    st[nst].name = name;
    return (int)nst++;
}

// Index of the last symbol in v[0..n) with addr <= a, or -1.
static long last_at_or_below(const sym_t *v, size_t n, uint32_t a)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid].addr <= a) lo = mid + 1;
        else hi = mid;
    }
    return (long)lo - 1;
}

// The function id of pc; sets [c_lo, c_hi), the addresses with the same answer.
static int lookup(uint32_t pc)
{
    long i = last_at_or_below(funcs, nfuncs, pc);
    if (i >= 0 && pc < funcs[i].end) {
        c_lo = funcs[i].addr;
        c_hi = funcs[i].end;
        return c_fn = funcs[i].id;
    }
    c_lo = i >= 0 ? funcs[i].end : 0;
    c_hi = (size_t)(i + 1) < nfuncs ? funcs[i + 1].addr : MEM_SIZE;
    long j = last_at_or_below(labels, nlabels, pc);
    if ((size_t)(j + 1) < nlabels && labels[j + 1].addr < c_hi) c_hi = labels[j + 1].addr;
    if (j < 0) return c_fn = 0;
    if (labels[j].addr > c_lo) c_lo = labels[j].addr;
    return c_fn = labels[j].id;
}

static void push(uint32_t slot, int fn, uint64_t start)
{
    if (depth == capstk) {
        capstk = capstk ? 2 * capstk : 64;
        stk = xrealloc(stk, capstk * sizeof *stk);
    }
    frame_t *f = &stk[depth++];
    f->slot = slot;
    f->fn = fn;
    f->outer = st[fn].active++ == 0;
    f->start = start;
}

int profile_start(const char *path)
{
    if (!syms) syms = xrealloc(NULL, sizeof *syms); // an image without symbols: no NULL + 0
    qsort(syms, nsyms, sizeof *syms, sym_cmp);
    size_t nf = 0;
    while (nf < nsyms && syms[nf].entry) nf++;
    funcs = syms;
    nfuncs = dedup(funcs, nf);
    labels = syms + nf;
    nlabels = dedup(labels, nsyms - nf);
    for (size_t i = 0; i < nfuncs; i++) {
        sym_t *f = &funcs[i];
        uint32_t next = i + 1 < nfuncs ? funcs[i + 1].addr : MEM_SIZE;
        uint32_t end = f->size ? f->addr + f->size : (f->sec_end < next ? f->sec_end : next);
        if (end > next) end = next; // overlapping sizes: keep the ranges disjoint
        f->end = end > f->addr ? end : f->addr + 2;
    }
    st = xrealloc(NULL, (nfuncs + nlabels + 1) * sizeof *st);
    memset(st, 0, (nfuncs + nlabels + 1) * sizeof *st);
    nst = 0;
    intern("(no symbol)");
    for (size_t i = 0; i < nfuncs; i++) funcs[i].id = intern(funcs[i].name);
    for (size_t i = 0; i < nlabels; i++) labels[i].id = intern(labels[i].name);
    out = stderr;
    if (path && !(out = fopen(path, "w"))) {
        fprintf(stderr, "msp430sim: cannot write %s\n", path);
        return -1;
    }
    push(UINT32_MAX, lookup(M.r[0] & ADDR_MASK), 0); // the run itself: never returns
    M.profile = 1;
    return 0;
}

void profile_step(uint16_t op, int cycles)
{
    uint32_t pc = M.pc0;
    int fn = pc - c_lo < c_hi - c_lo ? c_fn : lookup(pc);
    st[fn].self += (uint64_t)cycles;
    st[fn].insns++;
    // Activations whose return address SP has moved above have returned.
    uint32_t sp = M.r[1];
    while (stk[depth - 1].slot < sp) {
        frame_t *f = &stk[--depth];
        st[f->fn].active--;
        if (f->outer) st[f->fn].incl += M.cyc - f->start;
    }
    // CALL (0x1280 | As, Rn; B/W = 1 is illegal) and CALLA (0x1340..0x13Bx; 0x1300 is RETI).
    int calla = (op & 0xFF00u) == 0x1300u && (op & 0xF0u) >= 0x40u && (op & 0xF0u) <= 0xB0u;
    if ((op & 0xFF80u) == 0x1280u || calla) {
        int callee = lookup(M.r[0]);
        st[callee].calls++;
        push(sp, callee, M.cyc);
    }
}

static int row_cmp(const void *pa, const void *pb)
{
    const fstat_t *a = *(const fstat_t *const *)pa, *b = *(const fstat_t *const *)pb;
    if (a->self != b->self) return a->self > b->self ? -1 : 1;
    return strcmp(a->name, b->name);
}

void profile_report(void)
{
    if (!out) return;
    // Activations still open (the run, or every frame after a fault) end now.
    while (depth) {
        frame_t *f = &stk[--depth];
        st[f->fn].active--;
        if (f->outer) st[f->fn].incl += M.cyc - f->start;
    }
    const fstat_t **rows = xrealloc(NULL, (nst ? nst : 1) * sizeof *rows);
    size_t n = 0;
    for (size_t i = 0; i < nst; i++)
        if (st[i].insns || st[i].calls) rows[n++] = &st[i];
    qsort(rows, n, sizeof *rows, row_cmp);
    fprintf(out, "%-40s %8s %12s %6s %12s\n", "function", "calls", "self", "self%", "inclusive");
    for (size_t i = 0; i < n; i++) {
        const fstat_t *e = rows[i];
        double pct = M.cyc ? 100.0 * (double)e->self / (double)M.cyc : 0.0;
        fprintf(out, "%-40.40s %8llu %12llu %6.2f %12llu\n", e->name, (unsigned long long)e->calls,
                (unsigned long long)e->self, pct, (unsigned long long)e->incl);
    }
    free(rows);
    if (out != stderr) fclose(out);
    else fflush(stderr);
    out = NULL;
}
