// SPDX-License-Identifier: MIT
// MSP430X (CPUXV2) decode and execute: Format I/II, jumps, the extension word
// (20-bit .A data, repeat count, ZC), address instructions (MOVA, ADDA, SUBA,
// CMPA, CALLA, RETA, BRA), PUSHM/POPM and RRCM/RRAM/RLAM/RRUM. Semantics and
// flags follow SLAU367 chapter "CPUX"; cycles come from timing.c.
#include "cpu.h"
#include "fault.h"
#include "inject.h"
#include "leak.h"
#include "mem.h"
#include "profile.h"
#include "sim.h"
#include "timing.h"
#include "trace.h"

#define R M.r

enum { K_REG, K_MEM, K_CONST };
typedef struct {
    int kind, reg;
    uint32_t addr, val;
} opnd_t;

// Indexed by operand size in bytes: 1 = .B, 2 = .W, 4 = .A (20 bits).
static const uint32_t MASK[5] = { 0, 0xFFu, 0xFFFFu, 0, 0xFFFFFu };
static const uint32_t MSB[5] = { 0, 0x80u, 0x8000u, 0, 0x80000u };

static void illegal(uint16_t op) __attribute__((noreturn));
static void illegal(uint16_t op)
{
    sim_fault(ST_ILLEGAL, "illegal instruction 0x%04x", op);
}

static inline uint16_t fetch(void)
{
    uint32_t pc = R[0];
    int k = page_kind[pc >> 8];
    if (k != PG_RAM && k != PG_FRAM)
        sim_fault(ST_MEM, "instruction fetch from 0x%05x outside RAM/FRAM", pc);
    R[0] = (pc + 2) & ADDR_MASK;
    if (inj_mem) inj_pc_next = R[0]; // where a skipped instruction resumes
    return (uint16_t)(mem[pc] | (mem[pc + 1] << 8));
}

// Words of the current instruction fetched so far.
static inline uint32_t words(void) { return ((R[0] - M.pc0) & ADDR_MASK) >> 1; }

static inline uint32_t sext16(uint32_t w) { return (uint32_t)(int32_t)(int16_t)w & ADDR_MASK; }

static inline void set_reg(int n, uint32_t v, int sz)
{
    if (n == 3) return; // constant generator: writes are discarded
    if (inj_mem) inj_last_reg = n;
    v &= MASK[sz];      // byte/word writes clear the upper register bits
    if (n <= 1) v &= ~1u; // PC and SP are always even
    if (leak_on) leak_reg(v); // leakage model (leak.h)
    R[n] = v;
}

static inline void set_flags(uint32_t res, int sz, int c, int v)
{
    uint32_t sr = R[2] & ~(uint32_t)(SR_C | SR_Z | SR_N | SR_V);
    if (res & MSB[sz]) sr |= SR_N;
    if (!(res & MASK[sz])) sr |= SR_Z;
    if (c) sr |= SR_C;
    if (v) sr |= SR_V;
    R[2] = sr;
}

// Indexed/symbolic address of an MSP430 (non-X) instruction: a base in the lower
// 64 KB wraps at 16 bits; above it the index is sign-extended (SLAU367 "Indexed Mode").
static inline uint32_t idx16(uint32_t base, uint32_t x)
{
    if (base < 0x10000u) return (base + x) & 0xFFFFu;
    return (base + sext16(x)) & ADDR_MASK;
}

// Source operand (As, Rsrc); X instructions use 20-bit index/immediate with `hi`.
static void src_op(int as, int reg, int sz, int x, uint32_t hi, opnd_t *o, int *sm)
{
    o->reg = reg;
    if (reg == 3) {
        static const uint32_t cg[4] = { 0, 1, 2, 0xFFFFFu };
        o->kind = K_CONST;
        o->val = cg[as];
        *sm = SM_REG;
        return;
    }
    if (reg == 2 && as >= 2) {
        o->kind = K_CONST;
        o->val = as == 2 ? 4 : 8;
        *sm = SM_REG;
        return;
    }
    switch (as) {
    case 0:
        o->kind = K_REG;
        *sm = SM_REG;
        return;
    case 1: {
        uint32_t base = reg == 2 ? 0 : R[reg]; // R2: absolute; R0: symbolic (index word address)
        uint32_t w = fetch();
        o->kind = K_MEM;
        if (x) o->addr = (base + ((hi << 16) | w)) & ADDR_MASK;
        else o->addr = reg == 2 ? w : idx16(base, w);
        *sm = SM_IDX;
        return;
    }
    case 2:
        o->kind = K_MEM;
        o->addr = R[reg];
        *sm = SM_IND;
        return;
    default:
        if (reg == 0) { // @PC+: immediate
            uint32_t w = fetch();
            o->kind = K_CONST;
            o->val = x ? ((hi << 16) | w) : w;
            *sm = SM_IMM;
            return;
        }
        o->kind = K_MEM;
        o->addr = R[reg];
        R[reg] = (R[reg] + (sz == 1 ? (reg == 1 ? 2u : 1u) : (uint32_t)sz)) & ADDR_MASK;
        *sm = SM_INC;
        return;
    }
}

static void dst_op(int ad, int reg, int x, uint32_t hi, opnd_t *o, int *dm)
{
    o->reg = reg;
    if (!ad) {
        o->kind = K_REG;
        *dm = reg == 0 ? DM_PC : DM_REG;
        return;
    }
    uint32_t base = (reg == 2 || reg == 3) ? 0 : R[reg];
    uint32_t w = fetch();
    o->kind = K_MEM;
    if (x) o->addr = (base + ((hi << 16) | w)) & ADDR_MASK;
    else o->addr = (reg == 2 || reg == 3) ? w : idx16(base, w);
    *dm = DM_MEM;
}

static inline uint32_t rd_mem(uint32_t a, int sz)
{
    if (sz == 1) return rd8(a);
    if (sz == 2) return rd16(a);
    return rd20(a);
}

static inline void wr_mem(uint32_t a, uint32_t v, int sz)
{
    if (sz == 1) wr8(a, (uint8_t)v);
    else if (sz == 2) wr16(a, (uint16_t)v);
    else wr20(a, v);
}

static inline uint32_t read_op(const opnd_t *o, int sz)
{
    if (o->kind == K_REG) return R[o->reg] & MASK[sz];
    if (o->kind == K_CONST) return o->val & MASK[sz];
    return rd_mem(o->addr, sz);
}

static inline void write_op(const opnd_t *o, uint32_t v, int sz)
{
    if (o->kind == K_REG) set_reg(o->reg, v, sz);
    else if (o->kind == K_MEM) wr_mem(o->addr, v & MASK[sz], sz);
    // K_CONST (e.g. RRC #1): nothing to write
}

// Add with carry at width sz; sets N, Z, C, V.
static inline uint32_t add_flags(uint32_t d, uint32_t s, uint32_t c, int sz)
{
    uint32_t full = d + s + c;
    uint32_t res = full & MASK[sz];
    int v = ((~(d ^ s)) & (d ^ res) & MSB[sz]) != 0;
    set_flags(res, sz, full > MASK[sz], v);
    return res;
}

static uint32_t dadd(uint32_t s, uint32_t d, uint32_t c, int sz)
{
    int nib = sz == 1 ? 2 : sz == 2 ? 4 : 5;
    uint32_t res = 0;
    for (int i = 0; i < nib; i++) {
        uint32_t n = ((s >> (4 * i)) & 0xFu) + ((d >> (4 * i)) & 0xFu) + c;
        c = n > 9;
        if (c) n += 6; // decimal adjust
        res |= (n & 0xFu) << (4 * i);
    }
    uint32_t sr = R[2] & ~(uint32_t)(SR_C | SR_Z | SR_N); // V undefined: unchanged
    if (res & MSB[sz]) sr |= SR_N;
    if (!res) sr |= SR_Z;
    if (c) sr |= SR_C;
    R[2] = sr;
    return res;
}

// The twelve Format I operations; *wb = 0 for CMP and BIT (no write-back).
static inline __attribute__((always_inline)) uint32_t alu(int opc, uint32_t sv, uint32_t dv, uint32_t c, int sz, int *wb)
{
    uint32_t res;
    *wb = 1;
    switch (opc) {
    case 0x4: res = sv; break;
    case 0x5: res = add_flags(dv, sv, 0, sz); break;
    case 0x6: res = add_flags(dv, sv, c, sz); break;
    case 0x7: res = add_flags(dv, ~sv & MASK[sz], c, sz); break;
    case 0x8: res = add_flags(dv, ~sv & MASK[sz], 1, sz); break;
    case 0x9: res = add_flags(dv, ~sv & MASK[sz], 1, sz); *wb = 0; break;
    case 0xA: res = dadd(sv, dv, c, sz); break;
    case 0xB: res = sv & dv; set_flags(res, sz, res != 0, 0); *wb = 0; break;
    case 0xC: res = dv & ~sv; break;
    case 0xD: res = dv | sv; break;
    case 0xE:
        res = sv ^ dv;
        set_flags(res, sz, res != 0, (sv & dv & MSB[sz]) != 0);
        break;
    default: res = sv & dv; set_flags(res, sz, res != 0, 0); break;
    }
    return res;
}

// Cycle counts of MSP430 Format I, [opcode][source class][destination class],
// filled from timing.c at start-up so the hot path is one load.
static uint8_t fmt1_cyc[16][5][3];

void cpu_init(void)
{
    for (int opc = 4; opc < 16; opc++)
        for (int sm = 0; sm < 5; sm++)
            for (int dm = 0; dm < 3; dm++)
                fmt1_cyc[opc][sm][dm] = (uint8_t)t_fmt1(sm, dm, opc == 0x4 || opc == 0x9 || opc == 0xB,
                                                        opc == 0x4 || opc == 0x5 || opc == 0x8);
}

// Size from B/W and (for X instructions) A/L.
static inline int op_size(int bw, int x, uint16_t ext)
{
    if (!x) return bw ? 1 : 2;
    int al = (ext >> 6) & 1;
    if (!al && !bw) illegal(ext); // reserved combination
    return al ? (bw ? 1 : 2) : 4;
}

static int exec_fmt1(uint16_t op, int x, uint16_t ext)
{
    int opc = op >> 12, sreg = (op >> 8) & 0xF, ad = (op >> 7) & 1, bw = (op >> 6) & 1;
    int as = (op >> 4) & 3, dreg = op & 0xF;
    int sz = op_size(bw, x, ext);
    if (!x && as == 0 && ad == 0 && dreg != 0) {
        // Hot path: register to register (R3 reads as constant 0, R2 as SR).
        uint32_t sv = R[sreg] & MASK[sz], dv = R[dreg] & MASK[sz];
        int wb;
        uint32_t res = alu(opc, sv, dv, R[2] & SR_C, sz, &wb);
        if (wb) set_reg(dreg, res, sz);
        return 1; // Table 4-10: Rn -> Rm
    }
    int rpt = 1, zc = 0;
    uint32_t shi = 0, dhi = 0;
    if (x) {
        if (as == 0 && ad == 0) { // register-mode extension word
            zc = (ext & 0x100) != 0;
            rpt = (ext & 0x80) ? (int)(R[ext & 0xF] & 0xFu) + 1 : (ext & 0xF) + 1;
        } else {
            shi = (ext >> 7) & 0xFu;
            dhi = ext & 0xFu;
        }
    }
    opnd_t s = { 0, 0, 0, 0 }, d = { 0, 0, 0, 0 };
    int sm, dm;
    src_op(as, sreg, sz, x, shi, &s, &sm);
    uint32_t ws = words();
    dst_op(ad, dreg, x, dhi, &d, &dm);
    uint32_t wt = words();
    int movbitcmp = opc == 0x4 || opc == 0x9 || opc == 0xB;
    int movaddsub = opc == 0x4 || opc == 0x5 || opc == 0x8;
    int cyc = x ? t_fmt1x(sm, dm, sz == 4, movbitcmp, movaddsub, rpt) : fmt1_cyc[opc][sm][dm];

    for (int i = 0; i < rpt; i++) {
        M.now = M.cyc + ws + 1;
        uint32_t sv = read_op(&s, sz), dv = 0;
        if (opc != 0x4) {
            M.now = M.cyc + wt + (s.kind == K_MEM) + 1;
            dv = read_op(&d, sz);
        }
        uint32_t c = zc ? 0 : (R[2] & SR_C);
        int wb;
        uint32_t res = alu(opc, sv, dv, c, sz, &wb);
        if (wb) {
            M.now = M.cyc + (uint64_t)cyc;
            write_op(&d, res, sz);
        }
    }
    return cyc;
}

// RRC/RRA/SWPB/SXT on a value; returns result, sets flags.
static uint32_t shift_op(int opc2, uint32_t v, int sz, int zc, int *out_sz, int base_reg)
{
    uint32_t m = MASK[sz], msb = MSB[sz];
    *out_sz = sz;
    switch (opc2) {
    case 0: { // RRC (RRUX when ZC = 1)
        uint32_t c = zc ? 0 : (R[2] & SR_C);
        uint32_t res = ((v >> 1) | (c ? msb : 0)) & m;
        set_flags(res, sz, v & 1u, 0);
        return res;
    }
    case 1: // SWPB: no flags; .A keeps bits 19:16
        return (v & 0xF0000u) | ((v << 8) & 0xFF00u) | ((v >> 8) & 0xFFu);
    case 2: { // RRA
        uint32_t res = ((v >> 1) | (v & msb)) & m;
        set_flags(res, sz, v & 1u, 0);
        return res;
    }
    default: { // SXT: register mode extends into bits 19:8
        uint32_t res = (v & 0x80u) ? (v | 0xFFF00u) : (v & 0xFFu);
        if (base_reg) *out_sz = 4;
        res &= MASK[*out_sz];
        set_flags(res & m, sz, (res & m) != 0, 0);
        return res;
    }
    }
}

static int f2_mode(int sm, int reg)
{
    switch (sm) {
    case SM_REG: return F2_REG;
    case SM_IND: return F2_IND;
    case SM_INC: return F2_INC;
    case SM_IMM: return F2_IMM;
    default: return reg == 0 ? F2_SYM : reg == 2 ? F2_ABS : F2_IDX;
    }
}

static int exec_fmt2(uint16_t op, int x, uint16_t ext)
{
    int opc2 = (op >> 7) & 7, bw = (op >> 6) & 1, as = (op >> 4) & 3, reg = op & 0xF;
    if (!x && bw && (opc2 == 1 || opc2 == 3 || opc2 == 5)) illegal(op);
    if (x && opc2 == 5) illegal(op);
    int sz;
    if (x && (opc2 == 1 || opc2 == 3)) {
        // SWPBX/SXTX: .A is A/L = 0 with B/W = 0; B/W = 1 is not defined (SLAU367 4.5.2.2).
        if (bw) illegal(op);
        sz = (ext & 0x40) ? 2 : 4;
    } else {
        sz = op_size(bw, x, ext);
    }
    if (opc2 == 5) sz = 2;
    int rpt = 1, zc = 0;
    uint32_t hi = 0;
    if (x) {
        if (as == 0) {
            zc = (ext & 0x100) != 0;
            rpt = (ext & 0x80) ? (int)(R[ext & 0xF] & 0xFu) + 1 : (ext & 0xF) + 1;
        } else {
            hi = ext & 0xFu;
        }
    }
    opnd_t o = { 0, 0, 0, 0 };
    int sm;
    src_op(as, reg, sz, x, hi, &o, &sm);
    int mode = f2_mode(sm, reg);
    int cls = opc2 == 4 ? 1 : opc2 == 5 ? 2 : 0;
    if (rpt > 1 && (cls != 0 || mode != F2_REG)) illegal(op);
    int cyc = x ? t_fmt2x(cls, mode, sz == 4, rpt, reg == 1) : t_fmt2(cls, mode);
    if (cyc < 0) illegal(op); // e.g. RRC #N
    M.now = M.cyc + words() + 1;

    if (cls == 1) { // PUSH
        uint32_t v = read_op(&o, sz);
        R[1] = (R[1] - (sz == 4 ? 4u : 2u)) & ADDR_MASK;
        M.now = M.cyc + (uint64_t)cyc;
        wr_mem(R[1], v, sz);
        return cyc;
    }
    if (cls == 2) { // CALL: 16-bit target and return address
        uint32_t t = read_op(&o, 2);
        R[1] = (R[1] - 2u) & ADDR_MASK;
        M.now = M.cyc + (uint64_t)cyc;
        wr16(R[1], (uint16_t)R[0]);
        R[0] = t & 0xFFFEu;
        return cyc;
    }
    for (int i = 0; i < rpt; i++) {
        uint32_t v = read_op(&o, sz);
        int out_sz;
        uint32_t res = shift_op(opc2, v, sz, zc, &out_sz, !x && o.kind == K_REG);
        M.now = M.cyc + (uint64_t)cyc;
        if (o.kind == K_REG) set_reg(o.reg, res, out_sz);
        else write_op(&o, res, sz);
    }
    return cyc;
}

static int exec_reti_calla(uint16_t op)
{
    if (op == 0x1300) { // RETI
        M.now = M.cyc + 2;
        uint32_t sr = rd16(R[1]);
        uint32_t pc = rd16((R[1] + 2) & ADDR_MASK);
        R[1] = (R[1] + 4) & ADDR_MASK;
        R[2] = sr & 0x0FFFu;
        R[0] = (pc | ((sr >> 12) << 16)) & 0xFFFFEu;
        return T_RETI;
    }
    int sub = (op >> 4) & 0xF, d = op & 0xF;
    uint32_t target;
    int mode;
    M.now = M.cyc + 2;
    switch (sub) {
    case 0x4: target = R[d]; mode = F2_REG; break;
    case 0x5: {
        uint32_t w = fetch();
        M.now = M.cyc + 3;
        target = rd20((R[d] + sext16(w)) & ADDR_MASK);
        mode = F2_IDX;
        break;
    }
    case 0x6: target = rd20(R[d]); mode = F2_IND; break;
    case 0x7:
        target = rd20(R[d]);
        R[d] = (R[d] + 4) & ADDR_MASK;
        mode = F2_INC;
        break;
    case 0x8: {
        uint32_t w = fetch();
        M.now = M.cyc + 3;
        target = rd20(((uint32_t)d << 16) | w);
        mode = F2_ABS;
        break;
    }
    case 0x9: {
        uint32_t base = R[0], w = fetch();
        M.now = M.cyc + 3;
        target = rd20((base + (((uint32_t)d << 16) | w)) & ADDR_MASK);
        mode = F2_SYM;
        break;
    }
    case 0xB: target = ((uint32_t)d << 16) | fetch(); mode = F2_IMM; break;
    default: illegal(op);
    }
    int cyc = t_fmt2x(2, mode, 1, 0, sub == 0x5 && d == 1);
    R[1] = (R[1] - 4u) & ADDR_MASK;
    M.now = M.cyc + (uint64_t)cyc;
    wr20(R[1], R[0]);
    R[0] = target & 0xFFFFEu;
    return cyc;
}

static int exec_pushpop_m(uint16_t op)
{
    int sub = (op >> 8) & 3, n = ((op >> 4) & 0xF) + 1, reg = op & 0xF;
    int a = (sub & 1) == 0;
    M.now = M.cyc + 2;
    if (sub < 2) { // PUSHM: Rdst first, then downwards
        if (reg - n + 1 < 0) illegal(op);
        for (int i = 0; i < n; i++) {
            R[1] = (R[1] - (a ? 4u : 2u)) & ADDR_MASK;
            if (a) wr20(R[1], R[reg - i]);
            else wr16(R[1], (uint16_t)R[reg - i]);
        }
    } else { // POPM: lowest register first
        if (reg + n - 1 > 15) illegal(op);
        for (int i = 0; i < n; i++) {
            uint32_t v = a ? rd20(R[1]) : rd16(R[1]);
            R[1] = (R[1] + (a ? 4u : 2u)) & ADDR_MASK;
            set_reg(reg + i, v, a ? 4 : 2);
        }
    }
    return a ? 2 + 2 * n : 2 + n;
}

static int exec_shift_m(uint16_t op)
{
    int n = ((op >> 10) & 3) + 1, kind = (op >> 8) & 3, reg = op & 0xF;
    int sz = ((op >> 4) & 0xF) == 4 ? 4 : 2;
    uint32_t v = R[reg] & MASK[sz], m = MASK[sz], msb = MSB[sz], c = R[2] & SR_C;
    for (int i = 0; i < n; i++) {
        switch (kind) {
        case 0: { // RRCM
            uint32_t out = v & 1u;
            v = (v >> 1) | (c ? msb : 0);
            c = out;
            break;
        }
        case 1: c = v & 1u; v = (v >> 1) | (v & msb); break; // RRAM
        case 2: c = (v & msb) != 0; v = (v << 1) & m; break; // RLAM
        default: c = v & 1u; v >>= 1; break;                 // RRUM
        }
    }
    set_flags(v, sz, c != 0, 0);
    set_reg(reg, v, sz);
    return n;
}

static int exec_addr(uint16_t op)
{
    int sub = (op >> 4) & 0xF, src = (op >> 8) & 0xF, dst = op & 0xF;
    int dm = dst == 0 ? DM_PC : DM_REG;
    uint32_t v, w;
    switch (sub) {
    case 0x0: M.now = M.cyc + 2; v = rd20(R[src]); break;
    case 0x1:
        M.now = M.cyc + 2;
        v = rd20(R[src]);
        R[src] = (R[src] + 4) & ADDR_MASK;
        break;
    case 0x2: w = fetch(); M.now = M.cyc + 3; v = rd20(((uint32_t)src << 16) | w); break;
    case 0x3: w = fetch(); M.now = M.cyc + 3; v = rd20((R[src] + sext16(w)) & ADDR_MASK); break;
    case 0x4:
    case 0x5: return exec_shift_m(op);
    case 0x6:
        w = fetch();
        M.now = M.cyc + 4;
        wr20(((uint32_t)dst << 16) | w, R[src]);
        return t_addr(0, SM_REG, DM_MEM);
    case 0x7:
        w = fetch();
        M.now = M.cyc + 4;
        wr20((R[dst] + sext16(w)) & ADDR_MASK, R[src]);
        return t_addr(0, SM_REG, DM_MEM);
    case 0x8:
    case 0x9:
    case 0xA:
    case 0xB: v = ((uint32_t)src << 16) | fetch(); break;
    default: v = R[src]; break;
    }
    int sm = sub <= 1 ? (sub == 0 ? SM_IND : SM_INC) : sub <= 3 ? SM_IDX : sub <= 0xB ? SM_IMM : SM_REG;
    int arith = (sub & 3) != 0 && sub >= 8; // CMPA, ADDA, SUBA
    if (!arith) {
        set_reg(dst, v, 4);
        return t_addr(0, sm, dm);
    }
    uint32_t dv = R[dst], res;
    switch (sub & 3) {
    case 1: add_flags(dv, ~v & ADDR_MASK, 1, 4); return t_addr(1, sm, dm); // CMPA
    case 2: res = add_flags(dv, v, 0, 4); break;                           // ADDA
    default: res = add_flags(dv, ~v & ADDR_MASK, 1, 4); break;            // SUBA
    }
    set_reg(dst, res, 4);
    return t_addr(1, sm, dm);
}

static int exec_jump(uint16_t op)
{
    uint32_t sr = R[2];
    int n = (sr & SR_N) != 0, v = (sr & SR_V) != 0, take;
    switch ((op >> 10) & 7) {
    case 0: take = !(sr & SR_Z); break;
    case 1: take = (sr & SR_Z) != 0; break;
    case 2: take = !(sr & SR_C); break;
    case 3: take = (sr & SR_C) != 0; break;
    case 4: take = n; break;
    case 5: take = n == v; break;
    case 6: take = n != v; break;
    default: take = 1; break;
    }
    if (take) {
        int32_t off = (int32_t)((op & 0x3FFu) ^ 0x200u) - 0x200;
        if (off == -1 && !(sr & SR_GIE)) sim_fault(ST_HANG, "jump to itself with interrupts disabled (program hangs)");
        R[0] = (R[0] + (uint32_t)(off * 2)) & ADDR_MASK;
    }
    return T_JUMP;
}

static int exec_one(uint16_t op)
{
    if (op >= 0x4000) return exec_fmt1(op, 0, 0);
    if (op >= 0x2000) return exec_jump(op);
    if (op >= 0x1800) { // extension word
        uint16_t ext = op, next = fetch();
        if (next >= 0x4000) return exec_fmt1(next, 1, ext);
        if (next >= 0x1000 && next < 0x1300 && ((next >> 7) & 7) != 5) return exec_fmt2(next, 1, ext);
        illegal(next);
    }
    if (op >= 0x1400) return exec_pushpop_m(op);
    if (op >= 0x1300) return exec_reti_calla(op);
    if (op >= 0x1000) return exec_fmt2(op, 0, 0);
    return exec_addr(op);
}

static void stack_fault(uint32_t sp) __attribute__((noreturn));
static void stack_fault(uint32_t sp)
{
    if (M.stack_auto)
        sim_fault(ST_STACK, "stack pointer 0x%05x below 0x%04x, the end of the image's data (stack overflow)", sp,
                  M.stack_limit);
    sim_fault(ST_STACK, "stack pointer 0x%05x below SIM_STACK_LIMIT 0x%04x", sp, M.stack_limit);
}

void cpu_run(void)
{
    while (!M.halted) {
        M.pc0 = R[0];
        if (M.trace) trace_event(TR_PC, M.pc0);
        int watched = INJ.enabled && inject_before(M.pc0);
        uint16_t op = fetch();
        int c = exec_one(op);
        if (watched) inject_after();
        if (leak_on) leak_step(M.pc0);
        M.cyc += (uint64_t)c;
        M.insns++;
        if (M.profile) profile_step(op, c);
        uint32_t sp = R[1];
        if (sp && sp < M.sp_min) M.sp_min = sp;
        if (sp > M.sp_max) M.sp_max = sp;
        if (sp < M.stack_limit) stack_fault(sp);
        if (M.stack_floor && sp >= M.stack_floor) { // SP set above the data: from now on
            M.stack_limit = M.stack_floor;            // it may not go below it
            M.stack_floor = 0;
            M.stack_auto = 1;
        }
        if (R[2] & SR_CPUOFF) sim_fault(ST_HANG, "CPU switched off (low-power mode) with no interrupt source");
        if (M.max_cycles && M.cyc >= M.max_cycles)
            sim_fault(ST_MAXCYC, "cycle budget of %llu cycles spent (--max-cycles N to change, 0 for none): "
                                 "endless loop?", (unsigned long long)M.max_cycles);
    }
}
