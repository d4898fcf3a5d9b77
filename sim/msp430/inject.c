// SPDX-License-Identifier: MIT
// Fault injection: window bookkeeping and the three fault models (inject.h).
// A skipped instruction is executed with its memory writes dropped, then every
// register (PC included) is put back and PC moved past its words: it had no effect
// but the cycles it took. Its reads still happen on the unfaulted state, the same
// reads the unfaulted run made there, so they cannot fault.
#define _POSIX_C_SOURCE 200809L // fork, pipe, fileno
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fault.h"
#include "inject.h"
#include "sim.h"
#include "snap.h"

inject_t INJ;
int inj_mem;
uint32_t inj_pc_next;
int inj_last_reg = -1;
int inj_loaded;
int inj_load_bit;

static uint32_t saved[16];
static uint64_t console_at_fault; // console bytes when the fault was injected
static int watching, target;

// --fault-batch: the faults sorted by index, the next one due, the results file.
typedef struct {
    uint64_t at;
    int kind, bit;
    size_t line;     // its line in IN, from 0: results are written in this order
    int status;      // -1 until run
    char *out;       // its console
    size_t nout;
} batch_fault_t;
static batch_fault_t *batch;
static size_t nbatch, batch_next;
static FILE *batch_out;
static uint64_t batch_ref;

static int by_index(const void *a, const void *b)
{
    const batch_fault_t *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at ? 1 : (x->line > y->line) - (x->line < y->line);
}

const char *inject_batch_open(const char *in, const char *out, uint64_t ref_cycles)
{
    FILE *f = fopen(in, "r");
    char kind[8];
    unsigned long long at;
    int bit, n;
    if (!f) return "cannot read the fault batch";
    while ((n = fscanf(f, "%7s %llu", kind, &at)) == 2) {
        batch_fault_t b = {at, INJ_NONE, 0, nbatch, -1, NULL, 0};
        if (!strcmp(kind, "skip")) b.kind = INJ_SKIP;
        else if (!strcmp(kind, "flip")) b.kind = INJ_FLIP;
        else if (!strcmp(kind, "load")) b.kind = INJ_LOAD;
        if (!b.kind || (b.kind != INJ_SKIP && (fscanf(f, "%d", &bit) != 1 || bit < 0 || bit > 15))) {
            fclose(f);
            return "bad fault batch line (skip N | flip N BIT | load N BIT, BIT 0..15)";
        }
        b.bit = b.kind == INJ_SKIP ? 0 : bit;
        batch_fault_t *nb = realloc(batch, (nbatch + 1) * sizeof *batch);
        if (!nb) {
            fclose(f);
            return "out of memory";
        }
        batch = nb;
        batch[nbatch++] = b;
    }
    fclose(f);
    if (n != EOF) return "bad fault batch line (skip N | flip N BIT | load N BIT, BIT 0..15)";
    if (!(batch_out = fopen(out, "w"))) return "cannot write the fault batch results";
    qsort(batch, nbatch, sizeof *batch, by_index);
    batch_ref = ref_cycles;
    INJ.enabled = 1;
    return NULL;
}

// Forks the run for fault b. Returns 1 in the child (which now carries the fault), 0 in
// the parent once the child has ended and its console and status are kept.
static int batch_fork(batch_fault_t *b)
{
    int p[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(p) != 0) sim_fault(ST_USAGE, "fault batch: pipe failed");
    pid_t pid = fork();
    if (pid < 0) sim_fault(ST_USAGE, "fault batch: fork failed");
    if (pid == 0) {
        FILE *null = fopen("/dev/null", "w");
        close(p[0]);
        if (dup2(p[1], 1) < 0 || !null || dup2(fileno(null), 2) < 0) _exit(ST_USAGE);
        close(p[1]);
        INJ.kind = b->kind;
        INJ.at = b->at;
        INJ.reg = INJ_REG_DEST;
        INJ.bit = b->bit;
        INJ.done = 0;
        if (batch_ref) {
            uint64_t left = batch_ref > M.cyc ? batch_ref - M.cyc : 0;
            uint64_t limit = M.cyc + 4 * left + 1000000;
            if (!M.max_cycles || limit < M.max_cycles) M.max_cycles = limit;
        }
        batch = NULL; // no further forks, no results file in the child
        nbatch = 0;
        batch_out = NULL;
        return 1;
    }
    close(p[1]);
    size_t cap = 0;
    for (;;) {
        char buf[4096];
        ssize_t r = read(p[0], buf, sizeof buf);
        if (r <= 0) break;
        if (b->nout + (size_t)r > cap) { // the fault firmware prints a few hundred bytes
            cap = 2 * (b->nout + (size_t)r);
            char *nb = realloc(b->out, cap);
            if (!nb) sim_fault(ST_USAGE, "fault batch: out of memory");
            b->out = nb;
        }
        memcpy(b->out + b->nout, buf, (size_t)r);
        b->nout += (size_t)r;
    }
    close(p[0]);
    int st;
    if (waitpid(pid, &st, 0) != pid) sim_fault(ST_USAGE, "fault batch: waitpid failed");
    b->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return 0;
}

// Results in IN's order (the array is sorted by index: find each line).
static void batch_finish(void)
{
    size_t *where = malloc((nbatch ? nbatch : 1) * sizeof *where);
    if (!where) return;
    for (size_t i = 0; i < nbatch; i++) where[batch[i].line] = i;
    for (size_t l = 0; l < nbatch; l++) {
        batch_fault_t *b = &batch[where[l]];
        fprintf(batch_out, "%zu %d %zu\n", l, b->status, b->nout);
        if (b->nout) fwrite(b->out, 1, b->nout, batch_out);
        free(b->out);
    }
    free(where);
    free(batch);
    batch = NULL;
    fclose(batch_out);
    batch_out = NULL;
}

static int counted(uint32_t pc)
{
    if (!INJ.nranges) return 1;
    for (int i = 0; i < INJ.nranges; i++)
        if (pc >= INJ.lo[i] && pc < INJ.hi[i]) return 1;
    return 0;
}

int inject_before(uint32_t pc)
{
    if (INJ.state == 0) {
        if (INJ.have_window && pc != INJ.begin) return 0;
        INJ.state = 1;
    }
    if (INJ.state == 2) return 0;
    if (INJ.have_window && pc == INJ.end) {
        INJ.state = 2;
        return 0;
    }
    if (!counted(pc)) return 0;
    if (snap_every && INJ.count % snap_every == 0) {
        if (!snap_reading) snap_write();
        // after the fault, nothing printed since: an equal state runs on as the
        // unfaulted run does, so this run's outcome is the reference's (snap.h)
        else if (INJ.done && INJ.count > INJ.at && M.console_bytes == console_at_fault &&
                 snap_equal(INJ.count)) {
            fflush(stdout);
            exit(ST_CONVERGED);
        }
    }
    while (batch_next < nbatch && batch[batch_next].at == INJ.count)
        if (batch_fork(&batch[batch_next++])) break; // the child: carries that fault
    while (batch_next < nbatch && batch[batch_next].at < INJ.count) batch_next++; // cannot happen: sorted
    if (INJ.kind == INJ_CUT && INJ.count == INJ.at) // nvm.h: nothing of it runs
        sim_fault(ST_POWERCUT, "power cut before counted instruction #%llu", (unsigned long long)INJ.count);
    target = INJ.kind != INJ_NONE && !INJ.done && INJ.count == INJ.at;
    watching = target || INJ.list;
    if (!watching) {
        INJ.count++;
        return 0;
    }
    memcpy(saved, M.r, sizeof saved);
    inj_last_reg = -1;
    inj_loaded = 0;
    inj_mem = INJ_M_WATCH;
    if (target && INJ.kind == INJ_SKIP) inj_mem |= INJ_M_NOWRITE;
    if (target && INJ.kind == INJ_LOAD) inj_mem |= INJ_M_LOAD;
    return 1;
}

void inject_after(void)
{
    // The destination: the register the instruction set, else SR if only the flags
    // changed (CMP, BIT: a flag flip is the glitch that turns the next jump).
    int dest = inj_last_reg;
    if (dest < 0 && M.r[2] != saved[2]) dest = 2;
    if (INJ.list)
        fprintf(INJ.list, "%llu %05x %d %d\n", (unsigned long long)INJ.count, M.pc0, dest, inj_loaded);
    if (target) {
        INJ.done = 1;
        console_at_fault = M.console_bytes;
        if (INJ.kind == INJ_SKIP) {
            memcpy(M.r, saved, sizeof saved);
            M.r[0] = inj_pc_next;
            fprintf(stderr, "fault-injected: skip #%llu at 0x%05x\n", (unsigned long long)INJ.count, M.pc0);
        } else if (INJ.kind == INJ_FLIP) {
            int r = INJ.reg == INJ_REG_DEST ? dest : INJ.reg;
            if (r < 0 || r == 3) {
                fprintf(stderr, "fault-injected: none (#%llu at 0x%05x writes no register)\n",
                        (unsigned long long)INJ.count, M.pc0);
            } else {
                uint32_t v = (M.r[r] ^ (1u << INJ.bit)) & ADDR_MASK;
                if (r <= 1) v &= ~1u; // PC and SP bit 0 does not exist
                M.r[r] = v;
                fprintf(stderr, "fault-injected: flip R%d bit %d after #%llu at 0x%05x\n", r, INJ.bit,
                        (unsigned long long)INJ.count, M.pc0);
            }
        } else if (inj_mem & INJ_M_LOAD) { // still armed: nothing was read
            fprintf(stderr, "fault-injected: none (#%llu at 0x%05x loads nothing)\n",
                    (unsigned long long)INJ.count, M.pc0);
        } else {
            fprintf(stderr, "fault-injected: load bit %d of #%llu at 0x%05x\n", INJ.bit,
                    (unsigned long long)INJ.count, M.pc0);
        }
    }
    inj_mem = 0;
    target = watching = 0;
    INJ.count++;
}

uint32_t inject_load(uint32_t v, int bits)
{
    inj_loaded = 1;
    if (inj_mem & INJ_M_LOAD) {
        inj_mem &= ~INJ_M_LOAD;
        v ^= (1u << (INJ.bit % bits));
    }
    return v;
}

void inject_finish(void)
{
    snap_close();
    if (batch_out) batch_finish();
    if (INJ.want_count) fprintf(stderr, "fault-window: %llu\n", (unsigned long long)INJ.count);
    if (INJ.list) {
        fclose(INJ.list);
        INJ.list = NULL;
    }
}
