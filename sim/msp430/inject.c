// SPDX-License-Identifier: MIT
// Fault injection: window bookkeeping and the three fault models (inject.h).
// A skipped instruction is executed with its memory writes dropped, then every
// register (PC included) is put back and PC moved past its words: it had no effect
// but the cycles it took. Its reads still happen on the unfaulted state, the same
// reads the unfaulted run made there, so they cannot fault.
#include <string.h>

#include "fault.h"
#include "inject.h"
#include "sim.h"

inject_t INJ;
int inj_mem;
uint32_t inj_pc_next;
int inj_last_reg = -1;
int inj_loaded;
int inj_load_bit;

static uint32_t saved[16];
static int watching, target;

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
    if (INJ.want_count) fprintf(stderr, "fault-window: %llu\n", (unsigned long long)INJ.count);
    if (INJ.list) {
        fclose(INJ.list);
        INJ.list = NULL;
    }
}
