// SPDX-License-Identifier: MIT
// MPY32 (SLAU367 chapter "32-Bit Hardware Multiplier") at 0x04C0, and the
// 16-bit-only configuration (--mpy 16: MPY..SUMEXT at the same offsets).
// Results are computed when the operation starts; reading a result register
// before the cycle the user's guide gives for it stops the run (ST_MPY).
#include <string.h>

#include "fault.h"
#include "mpy.h"
#include "sim.h"

// Register offsets from 0x04C0 (msp430fr5969.h).
enum {
    O_MPY = 0x00, O_MPYS = 0x02, O_MAC = 0x04, O_MACS = 0x06, O_OP2 = 0x08,
    O_RESLO = 0x0A, O_RESHI = 0x0C, O_SUMEXT = 0x0E,
    O_MPY32L = 0x10, O_MACS32H = 0x1E, O_OP2L = 0x20, O_OP2H = 0x22,
    O_RES0 = 0x24, O_RES1 = 0x26, O_RES2 = 0x28, O_RES3 = 0x2A, O_CTL0 = 0x2C,
};
// MPY32CTL0 bits.
#define C_MPYC 0x0001u
#define C_FRAC 0x0004u
#define C_SAT 0x0008u
#define C_MPYM 0x0030u
#define C_OP1_32 0x0040u
#define C_OP2_32 0x0080u
#define C_DLYWRTEN 0x0100u
#define C_DLY32 0x0200u

#define NEVER UINT64_MAX

static struct {
    uint16_t regs[0x18];   // last value written to each operand register (read-back)
    uint32_t op1, op2;
    uint64_t res;          // RES3:RES2:RES1:RES0
    uint16_t sumext;
    uint16_t ctl;          // MPY32CTL0, MPYC kept here too
    int wide;              // last operation had a 32-bit operand (64-bit result)
    int op2l_pending;      // OP2L written, waiting for OP2H
    uint64_t op2l_time;
    uint64_t ready[5];     // RES0..RES3, MPYC/SUMEXT
} P;

void mpy_reset(void)
{
    memset(&P, 0, sizeof P);
}

const uint8_t *mpy_state(size_t *n)
{
    *n = sizeof P;
    return (const uint8_t *)&P;
}

static int mode_signed(void) { return (P.ctl & 0x10u) != 0; }
static int mode_acc(void) { return (P.ctl & 0x20u) != 0; }

// Result availability, SLAU367 "Result Availability" table (MCLK cycles after the
// write): rows 8/16x8/16, 24/32x8/16 (after OP2), 8/16x24/32 and 24/32x24/32 after
// OP2L and after OP2H. Columns RES0, RES1, RES2, RES3, MPYC (and SUMEXT).
static const uint8_t lat_16x16[5] = { 3, 3, 4, 4, 3 };
static const uint8_t lat_32x16[5] = { 3, 5, 6, 7, 7 };
static const uint8_t lat_16x32_l[5] = { 3, 5, 6, 7, 7 };
static const uint8_t lat_16x32_h[5] = { 0, 3, 4, 4, 4 }; // RES0 "N/A"
static const uint8_t lat_32x32_l[5] = { 3, 8, 10, 11, 11 };
static const uint8_t lat_32x32_h[5] = { 0, 3, 5, 6, 6 };

static uint64_t sext(uint64_t v, int bits)
{
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (v ^ m) - m;
}

// Saturated (MPYSAT) and/or fractional (MPYFRAC) view of the result, width 32 or 64.
// The accumulator of signed modes is {MPYC, RES} (so saturation sees overflow).
static uint64_t view(int width, int frac, int sat)
{
    uint64_t mask = width == 64 ? ~0ull : 0xFFFFFFFFull;
    uint64_t r = P.res & mask;
    if (!sat || !mode_signed()) return frac ? (r << 1) & mask : r;
    __int128 v = (__int128)r;
    if (P.ctl & C_MPYC) v -= (__int128)1 << width; // {MPYC, RES}: (w+1)-bit two's complement
    if (frac) v *= 2;
    __int128 max = ((__int128)1 << (width - 1)) - 1, min = -((__int128)1 << (width - 1));
    if (v > max) v = max;
    if (v < min) v = min;
    return (uint64_t)v & mask;
}

static void start(uint64_t t, const uint8_t *lat, const uint8_t *lat2, uint64_t t2)
{
    int sgn = mode_signed(), acc = mode_acc();
    int op1_32 = (P.ctl & C_OP1_32) != 0, op2_32 = (P.ctl & C_OP2_32) != 0;
    int wide = op1_32 || op2_32;
    uint64_t a = op1_32 ? P.op1 : (P.op1 & 0xFFFFu);
    uint64_t b = op2_32 ? P.op2 : (P.op2 & 0xFFFFu);
    if (M.mpy16) {
        // 16-bit multiplier: 32-bit accumulator; SUMEXT = sign (MPYS, MACS), carry (MAC).
        uint32_t p = sgn ? (uint32_t)((int32_t)(int16_t)a * (int32_t)(int16_t)b) : (uint32_t)(a * b);
        uint64_t sum = acc ? (uint64_t)(uint32_t)P.res + p : p;
        P.res = (uint32_t)sum;
        if (sgn) P.sumext = (P.res & 0x80000000u) ? 0xFFFF : 0;
        else P.sumext = acc ? (uint16_t)((sum >> 32) & 1u) : 0;
    } else {
        int w = wide ? 64 : 32;
        uint64_t mask = wide ? ~0ull : 0xFFFFFFFFull;
        __int128 p = sgn ? (__int128)(int64_t)sext(a, op1_32 ? 32 : 16) * (int64_t)sext(b, op2_32 ? 32 : 16)
                         : (__int128)a * (__int128)b;
        __int128 sum = p;
        if (acc) {
            // Saturation mode feeds the adjusted (saturated, non-fractional) value back.
            uint64_t prior = (P.ctl & C_SAT) ? view(w, 0, 1) : (P.res & mask);
            __int128 pv = (__int128)prior;
            if (sgn && (P.ctl & C_SAT)) pv = (__int128)(int64_t)sext(prior, w);
            else if (sgn && (P.ctl & C_MPYC)) pv -= (__int128)1 << w;
            sum = pv + p;
        }
        uint64_t lo = (uint64_t)sum & mask;
        int carry = (int)((sum >> w) & 1);
        int neg = sgn ? (sum < 0) : 0;
        if (sgn) {
            // Signed: MPYC = bit w of the (w+1)-bit two's complement sum (its sign);
            // SUMEXT = extended sign of the w-bit result.
            P.ctl = (uint16_t)((P.ctl & ~C_MPYC) | (neg ? C_MPYC : 0));
            P.sumext = (lo >> (w - 1)) & 1u ? 0xFFFF : 0;
        } else {
            P.ctl = (uint16_t)((P.ctl & ~C_MPYC) | (acc && carry ? C_MPYC : 0));
            P.sumext = acc ? (uint16_t)carry : 0;
        }
        if (wide) {
            P.res = lo;
        } else {
            // RES3:RES2 = extension of the 33-bit result (not specified by the guide).
            uint64_t ext = sgn ? (neg ? 0xFFFFFFFFull : 0) : (uint64_t)(acc && carry);
            P.res = lo | (ext << 32);
        }
    }
    P.wide = wide && !M.mpy16;
    for (int i = 0; i < 5; i++) {
        uint64_t r = t + lat[i];
        if (lat2 && lat2[i] && t2 + lat2[i] > r) r = t2 + lat2[i];
        P.ready[i] = r;
    }
}

// Delayed write (MPYDLYWRTEN): an operand write waits until the running result is ready.
static uint64_t write_time(void)
{
    uint64_t t = M.now;
    if (P.ctl & C_DLYWRTEN) {
        uint64_t r = P.ready[(P.ctl & C_DLY32) ? 1 : 3];
        if (r != NEVER && r > t) t = r;
    }
    return t;
}

static uint16_t operand(uint16_t v, int byte)
{
    if (!byte) return v;
    // Byte access: 8-bit (or 24-bit) operand, sign-extended in signed modes.
    return mode_signed() ? (uint16_t)(int16_t)(int8_t)v : (uint16_t)(v & 0xFF);
}

void mpy_write(uint32_t off, uint16_t v, int byte)
{
    if (M.mpy16 && off > O_SUMEXT)
        sim_fault(ST_MPY, "write to MPY32 register 0x%05x, absent with --mpy 16", MPY_BASE + off);
    if (off <= O_MACS || (off >= O_MPY32L && off <= O_MACS32H)) {
        int mode = off <= O_MACS ? (int)(off >> 1) : (int)((off - O_MPY32L) >> 2);
        P.ctl = (uint16_t)((P.ctl & ~C_MPYM) | (mode << 4));
        v = operand(v, byte);
        P.regs[off >> 1] = v;
        if (off <= O_MACS || ((off - O_MPY32L) & 2u) == 0) {
            // 16-bit OP1 register or low word of a 32-bit one: OP1 is 16 bits until
            // a high word follows.
            P.op1 = v;
            P.ctl &= (uint16_t)~C_OP1_32;
        } else {
            P.op1 = (P.op1 & 0xFFFFu) | ((uint32_t)v << 16);
            P.ctl |= C_OP1_32;
        }
        return;
    }
    switch (off) {
    case O_OP2: {
        uint64_t t = write_time();
        v = operand(v, byte);
        P.regs[off >> 1] = v;
        P.op2 = v;
        P.ctl &= (uint16_t)~C_OP2_32;
        P.op2l_pending = 0;
        int op1_32 = (P.ctl & C_OP1_32) != 0;
        start(t, M.mpy16 ? lat_16x16 : op1_32 ? lat_32x16 : lat_16x16, NULL, 0);
        return;
    }
    case O_OP2L: {
        uint64_t t = write_time();
        v = operand(v, byte);
        P.regs[off >> 1] = v;
        P.op2 = v;
        P.ctl |= C_OP2_32;
        P.op2l_pending = 1;
        P.op2l_time = t;
        for (int i = 0; i < 5; i++) P.ready[i] = NEVER; // complete once OP2H is written
        return;
    }
    case O_OP2H: {
        uint64_t t = write_time();
        v = operand(v, byte);
        P.regs[off >> 1] = v;
        P.op2 = (P.op2 & 0xFFFFu) | ((uint32_t)v << 16);
        P.ctl |= C_OP2_32;
        uint64_t tl = P.op2l_pending ? P.op2l_time : t;
        P.op2l_pending = 0;
        int op1_32 = (P.ctl & C_OP1_32) != 0;
        start(tl, op1_32 ? lat_32x32_l : lat_16x32_l, op1_32 ? lat_32x32_h : lat_16x32_h, t);
        return;
    }
    case O_RESLO:
    case O_RES0: P.res = (P.res & ~0xFFFFull) | v; return;
    case O_RESHI:
    case O_RES1: P.res = (P.res & ~0xFFFF0000ull) | ((uint64_t)v << 16); return;
    case O_RES2: P.res = (P.res & ~0xFFFF00000000ull) | ((uint64_t)v << 32); return;
    case O_RES3: P.res = (P.res & 0xFFFFFFFFFFFFull) | ((uint64_t)v << 48); return;
    case O_SUMEXT: return; // read-only
    case O_CTL0:
        if (byte) v = (uint16_t)((P.ctl & 0xFF00u) | (v & 0xFFu));
        P.ctl = (uint16_t)(v & 0x03FDu);
        return;
    default: sim_fault(ST_MPY, "write to reserved multiplier address 0x%05x", MPY_BASE + off);
    }
}

static void check_ready(int idx, uint32_t off)
{
    if (P.ready[idx] == NEVER)
        sim_fault(ST_MPY, "multiplier result 0x%05x read before OP2H was written", MPY_BASE + off);
    if (M.now < P.ready[idx])
        sim_fault(ST_MPY, "multiplier result 0x%05x read %llu cycle(s) before it is ready",
                  MPY_BASE + off, (unsigned long long)(P.ready[idx] - M.now));
}

uint16_t mpy_read(uint32_t off, int byte)
{
    (void)byte;
    if (M.mpy16 && off > O_SUMEXT)
        sim_fault(ST_MPY, "read of MPY32 register 0x%05x, absent with --mpy 16", MPY_BASE + off);
    int frac = !M.mpy16 && (P.ctl & C_FRAC), sat = !M.mpy16 && (P.ctl & C_SAT);
    int width = P.wide ? 64 : 32;
    switch (off) {
    case O_RESLO:
    case O_RES0: check_ready(0, off); return (uint16_t)view(width, frac, sat);
    case O_RESHI:
    case O_RES1: check_ready(1, off); return (uint16_t)(view(width, frac, sat) >> 16);
    case O_RES2:
        check_ready(2, off);
        return (uint16_t)((width == 64 ? view(64, frac, sat) : P.res) >> 32);
    case O_RES3:
        check_ready(3, off);
        return (uint16_t)((width == 64 ? view(64, frac, sat) : P.res) >> 48);
    case O_SUMEXT:
        check_ready(4, off);
        if (frac) {
            // Bits w+1:w of the shifted result, sign-extended (guide, fractional mode).
            int s = mode_signed();
            int top = (int)((P.res >> (width - 1)) & 1u);
            int hi = s ? ((P.ctl & C_MPYC) ? 1 : 0) : (P.sumext & 1);
            int two = (hi << 1) | top;
            return (uint16_t)(s ? (two & 2 ? (0xFFFCu | (unsigned)two) : (unsigned)two) : (unsigned)two);
        }
        return P.sumext;
    case O_CTL0: check_ready(4, off); return P.ctl;
    case O_OP2H: return P.regs[off >> 1];
    default:
        if (off < O_CTL0 && off != 0x2E) return P.regs[off >> 1];
        sim_fault(ST_MPY, "read of reserved multiplier address 0x%05x", MPY_BASE + off);
    }
}
