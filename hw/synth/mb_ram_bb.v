// SPDX-License-Identifier: MIT
// Black box for synthesis: the RAM is a macro, counted separately (hw/README.md, "Area").
(* blackbox *)
module mb_ram (
    input  wire        clk,
    input  wire        en,
    input  wire        we,
    input  wire [6:0]  addr,
    input  wire [31:0] wdata,
    output wire [31:0] rdata
);
endmodule
