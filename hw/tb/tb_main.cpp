// SPDX-License-Identifier: MIT
// Verilator testbench for mb_asip: drives the 32-bit host interface as a reader would.
// Line protocol on stdin/stdout (one process runs many cases):
//   W b HEX64   write 32 bytes (little-endian words) to bank b (0 = R0, 1 = R1)
//   R b         read bank b -> prints HEX64
//   C n         start command n, poll busy; prints the busy cycle count
//   Q           quit
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
#include <iostream>
#include "Vmb_asip.h"
#include "verilated.h"

static Vmb_asip *dut;
static void tick() {
    dut->clk = 0; dut->eval();
    dut->clk = 1; dut->eval();
}
static void idle() { dut->io_we = 0; dut->io_re = 0; dut->start = 0; }

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    dut = new Vmb_asip;
    idle();
    dut->rst = 1; tick(); tick(); dut->rst = 0;
    std::string op;
    while (std::cin >> op) {
        if (op == "W") {
            int b; std::string hex; std::cin >> b >> hex;
            for (int i = 0; i < 8; i++) {
                uint32_t w = 0;
                for (int j = 3; j >= 0; j--)
                    w = (w << 8) | (uint32_t)std::stoul(hex.substr(8 * i + 2 * j, 2), nullptr, 16);
                dut->io_addr = b * 8 + i; dut->io_wdata = w; dut->io_we = 1; tick();
            }
            idle();
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
        } else if (op == "C") {
            int n; std::cin >> n;
            dut->cmd = n; dut->start = 1; tick(); idle();
            uint64_t cycles = 0;
            while (dut->busy) {
                tick(); cycles++;
                if (cycles > 100000000ull) { printf("TIMEOUT\n"); return 1; }
            }
            printf("%llu\n", (unsigned long long)cycles); fflush(stdout);
        } else if (op == "Q") {
            break;
        }
    }
    dut->final();
    delete dut;
    return 0;
}
