// SPDX-License-Identifier: MIT
// Single-port synchronous RAM, 9 banks x 8 words x 32 bits (R0..R8).  Behavioural model
// of a RAM macro: one access per cycle; read data appears the cycle after the address
// and holds until the next read (writes do not disturb dout).
module mb_ram (
    input  wire        clk,
    input  wire        en,
    input  wire        we,
    input  wire [6:0]  addr,    // {bank[3:0], word[2:0]}, banks 0..8
    input  wire [31:0] wdata,
    output reg  [31:0] rdata
);
    reg [31:0] mem [0:71];
    always @(posedge clk) begin
        if (en) begin
            if (we) mem[addr] <= wdata;
            else    rdata <= mem[addr];
        end
    end
endmodule
