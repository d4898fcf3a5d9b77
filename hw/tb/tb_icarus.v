// SPDX-License-Identifier: MIT
// Icarus Verilog testbench for mb_asip: reads a word-level script from +script=FILE
//   w ADDR HEX   write word ADDR (0..15) | r ADDR   print word | c CMD   run, print cycles | q
module tb_icarus;
    parameter W = 16;
    reg clk = 1'b0, rst = 1'b1, io_we = 1'b0, io_re = 1'b0, start = 1'b0;
    reg [3:0] io_addr = 4'd0;
    reg [31:0] io_wdata = 32'd0;
    reg [2:0] cmd = 3'd0;
    wire [31:0] io_rdata;
    wire busy;
    mb_asip #(.W(W)) dut (.clk(clk), .rst(rst), .io_addr(io_addr), .io_we(io_we), .io_re(io_re),
        .io_wdata(io_wdata), .io_rdata(io_rdata), .cmd(cmd), .start(start), .busy(busy));
    always #5 clk = ~clk;

    integer fd, rc, a, cycles;
    reg [31:0] v;
    reg [8*8-1:0] op;
    reg [8*256-1:0] fname;
    initial begin
        if (!$value$plusargs("script=%s", fname)) begin $display("no +script"); $finish; end
        fd = $fopen(fname, "r");
        @(posedge clk); @(posedge clk); #1 rst = 1'b0;
        while (!$feof(fd)) begin
            rc = $fscanf(fd, "%s", op);
            if (rc == 1) begin
                if (op == "w") begin
                    rc = $fscanf(fd, "%d %h", a, v);
                    io_addr = a; io_wdata = v; io_we = 1'b1; @(posedge clk); #1 io_we = 1'b0;
                end else if (op == "r") begin
                    rc = $fscanf(fd, "%d", a);
                    io_addr = a; io_re = 1'b1; @(posedge clk); #1 io_re = 1'b0;
                    $display("%08h", io_rdata);
                end else if (op == "c") begin
                    rc = $fscanf(fd, "%d", a);
                    cmd = a; start = 1'b1; @(posedge clk); #1 start = 1'b0;
                    cycles = 0;
                    while (busy) begin @(posedge clk); #1 cycles = cycles + 1; end
                    $display("cycles %0d", cycles);
                end else if (op == "q") begin
                    $finish;
                end
            end
        end
        $finish;
    end
endmodule
