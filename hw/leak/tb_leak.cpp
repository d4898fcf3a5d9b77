// SPDX-License-Identifier: MIT
// Power-trace testbench for mb_asip: the register-toggle (Hamming distance) model.
// Per clock edge, the number of flip-flops that change value, in three channels:
// 0 datapath (acc, ma, mb, pf, rom_q, the RAM output register), 1 control (pc, ir2,
// cnt, page, swap, multiplier state...), 2 RAM bit cells. The flip-flop list is
// generated from the RTL (hw/leak/regs.py -> regs.h); the model is built with
// --public-flat-rw so every register is readable. No glitches, no wire or clock-tree
// capacitance, no combinational logic: see docs/SIDE_CHANNELS.md.
//
// Line protocol on stdin (one process runs many traces); the tb_main.cpp commands
//   W b HEX64 | R b | C n | Q
// plus
//   M b HEX64          poke 32 bytes into RAM bank b (0..8) without a host cycle
//   P n trig S full    start command n; record S samples from the first clock edge at
//                      which stage 1 holds pc == trig (trig < 0: from the start edge);
//                      full = 0: abort by reset after the window, 1: run to the end.
//                      Prints "cycles S\n" (cycles = busy cycles, 0 if aborted) then
//                      3*S little-endian uint16: channel 0's S samples, 1's, 2's.
//   A S                record the next S clock edges, whatever drives them
//   T                  print the samples recorded since A, in P's format (cycles 0)
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>
#include <iostream>
#include "Vmb_asip.h"
#include "Vmb_asip___024root.h"
#include "verilated.h"
#include "regs.h"

static Vmb_asip *dut;

// ---- snapshot of every flip-flop, one word vector per channel
static void put(std::vector<uint32_t> &o, uint64_t v) {
    o.push_back((uint32_t)v);
    o.push_back((uint32_t)(v >> 32));
}
template <std::size_t N> static void put(std::vector<uint32_t> &o, const VlWide<N> &v) {
    for (std::size_t i = 0; i < N; i++) o.push_back(v[i]);
}
template <class T, std::size_t N> static void put(std::vector<uint32_t> &o, const VlUnpacked<T, N> &v) {
    for (std::size_t i = 0; i < N; i++) put(o, v[i]);
}
static std::vector<uint32_t> prev[3], cur[3];
static void snap(std::vector<uint32_t> *s) {
    Vmb_asip___024root *r = dut->rootp;
    for (int c = 0; c < 3; c++) s[c].clear();
#define SNAP(ch, name) put(s[ch], r->name);
    MB_LEAK_REGS(SNAP)
#undef SNAP
}

// ---- recording
static std::vector<uint16_t> rec[3];
static size_t rec_left = 0;

static void tick() {
    dut->clk = 0; dut->eval();
    dut->clk = 1; dut->eval();
    snap(cur);
    if (rec_left) {
        for (int c = 0; c < 3; c++) {
            unsigned hd = 0;
            for (size_t i = 0; i < cur[c].size(); i++) hd += __builtin_popcount(cur[c][i] ^ prev[c][i]);
            rec[c].push_back((uint16_t)hd);
        }
        rec_left--;
    }
    for (int c = 0; c < 3; c++) prev[c].swap(cur[c]);
}
static void idle() { dut->io_we = 0; dut->io_re = 0; dut->start = 0; }
static void reset() {
    idle();
    dut->rst = 1; tick(); tick(); dut->rst = 0;
}
static void arm(size_t n) {
    for (int c = 0; c < 3; c++) rec[c].clear();
    rec_left = n;
}
static void dump(unsigned long long cycles, size_t n) {
    printf("%llu %zu\n", cycles, n);
    for (int c = 0; c < 3; c++) {
        rec[c].resize(n, 0);
        fwrite(rec[c].data(), sizeof(uint16_t), n, stdout);  // little-endian hosts only
    }
    fflush(stdout);
}
static uint32_t word(const std::string &hex, int i) {
    uint32_t w = 0;
    for (int j = 3; j >= 0; j--) w = (w << 8) | (uint32_t)std::stoul(hex.substr(8 * i + 2 * j, 2), nullptr, 16);
    return w;
}

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    dut = new Vmb_asip;
    snap(prev);
    reset();
    std::string op;
    while (std::cin >> op) {
        if (op == "W") {
            int b; std::string hex; std::cin >> b >> hex;
            for (int i = 0; i < 8; i++) {
                dut->io_addr = b * 8 + i; dut->io_wdata = word(hex, i); dut->io_we = 1; tick();
            }
            idle();
        } else if (op == "M") {
            int b; std::string hex; std::cin >> b >> hex;
            for (int i = 0; i < 8; i++) dut->rootp->mb_asip__DOT__u_ram__DOT__mem[b * 8 + i] = word(hex, i);
            snap(prev);   // a poke is not a clock edge: no toggles
        } else if (op == "R") {
            int b; std::cin >> b;
            char out[65];
            for (int i = 0; i < 8; i++) {
                dut->io_addr = b * 8 + i; dut->io_re = 1; tick(); idle();
                dut->eval();
                uint32_t w = dut->io_rdata;
                for (int j = 0; j < 4; j++) snprintf(out + 8 * i + 2 * j, 3, "%02x", (w >> (8 * j)) & 0xff);
            }
            printf("%s\n", out); fflush(stdout);
        } else if (op == "C" || op == "P") {
            int n; long trig = -1; size_t S = 0; int full = 1;
            std::cin >> n;
            if (op == "P") std::cin >> trig >> S >> full;
            dut->cmd = n; dut->start = 1;
            if (op == "P" && trig < 0) arm(S);
            tick(); idle();
            bool armed = (op == "P" && trig < 0);
            unsigned long long cycles = 0;
            while (dut->busy) {
                if (op == "P" && !armed && dut->rootp->mb_asip__DOT__pc == (unsigned long)trig) {
                    arm(S); armed = true;
                }
                if (op == "P" && !full && armed && rec_left == 0) break;
                tick(); cycles++;
                if (cycles > 100000000ull) { printf("TIMEOUT\n"); fflush(stdout); return 1; }
            }
            if (op == "C") { printf("%llu\n", cycles); fflush(stdout); continue; }
            bool aborted = dut->busy;
            rec_left = 0;
            if (aborted) reset();
            dump(aborted ? 0 : cycles, S);
        } else if (op == "A") {
            size_t S; std::cin >> S;
            arm(S);
        } else if (op == "T") {
            size_t n = rec[0].size();
            rec_left = 0;
            dump(0, n);
        } else if (op == "Q") {
            break;
        }
    }
    dut->final();
    delete dut;
    return 0;
}
