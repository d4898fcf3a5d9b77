// SPDX-License-Identifier: MIT
// motebox crypto_box ASIP ([HSSW15] architecture, our own design; see hw/README.md).
// 32-bit datapath, 68-bit accumulator, digit-serial W-bit multiplier, single-port RAM.
// Two pipeline stages: stage 1 = program ROM, decode, control flow, address translation
// (page table + ladder bank swap) and the operand read (the prefetch); stage 2 = execute.
// Constant time: no instruction's duration depends on data; the only secret-dependent
// state is `swap`, which exchanges bank addresses 2<->4 and 3<->5.
module mb_asip #(
    parameter W = 16                       // multiplier digit size: 2, 4, 8, 12, 16
) (
    input  wire        clk,
    input  wire        rst,
    // host interface: words 0..7 = R0, 8..15 = R1; usable while !busy
    input  wire [3:0]  io_addr,
    input  wire        io_we,
    input  wire        io_re,              // io_rdata valid the next cycle
    input  wire [31:0] io_wdata,
    output wire [31:0] io_rdata,
    input  wire [2:0]  cmd,                // 1 DH1 2 DH2 3 INIT 4 FIRST 5 UPDATE 6 FINALIZE 7 DECRYPT
    input  wire        start,
    output reg         busy
);
    localparam [31:0] N = (32 + W - 1) / W; // digit steps per 32x32 product
    localparam NW = N * W;                 // 32 or 36 (W = 12)
    localparam [31:0] NS = (8 + W - 1) / W; // MACS digit steps (constant < 256)
    localparam SW = NS * W;                // 8, 12 or 16
    localparam A  = 68;                    // accumulator bits

    localparam OP_HALT = 5'd1, OP_LD = 5'd2,  OP_ADD = 5'd3, OP_SUB = 5'd4,
               OP_AND = 5'd5,  OP_OR = 5'd6,   OP_XOR = 5'd7, OP_ST = 5'd8,  OP_STS = 5'd9,
               OP_MAC = 5'd10, OP_ROL = 5'd11, OP_SHR = 5'd12, OP_CLR = 5'd13, OP_MUL = 5'd14,
               OP_MPS = 5'd15, OP_JMP = 5'd16, OP_CALL = 5'd17, OP_RET = 5'd18, OP_LOOP = 5'd19,
               OP_SETC = 5'd20, OP_LDSW = 5'd21, OP_SF = 5'd22, OP_CF = 5'd23, OP_JF = 5'd24,
               OP_CSW = 5'd25, OP_MACS = 5'd26;
    localparam M_PRE0 = 3'd0, M_PRE1 = 3'd1, M_PROD = 3'd2, M_WR = 3'd3, M_FIN = 3'd4;
    localparam S_KEEP = 2'd0, S_PF = 2'd1, S_DOUT = 2'd2;

    // ------------------------------------------------------------ state
    reg  [10:0] pc, ret;
    reg  [7:0]  cnt;
    reg  [5:0]  page;
    reg         swap, flag;
    reg         s2_valid;
    reg  [15:0] ir2;
    reg  [6:0]  s2_addr;
    reg  [31:0] rom_q;
    reg  [4:0]  s2_bit;
    reg  [A-1:0] acc;
    reg  [1:0]  rot;                       // acc holds ROR_NW (01) / ROR_SW (10) of the value
    reg  [31:0] ma, pf;
    reg  [NW-1:0] mb;
    reg  [3:0]  step;
    reg  [2:0]  mstate;
    reg  [3:0]  mk, wi;
    reg  [2:0]  mi;
    reg  [1:0]  a_src, b_src;
    reg         mlast;

    // ------------------------------------------------------------ ROMs
    wire [15:0] ir1;
    wire [15:0] pg;
    wire [31:0] crom1, crom2;
    wire [10:0] entry;
    prog_rom  u_prog (.a(pc), .d(ir1));
    page_rom  u_page (.a(page), .d(pg));
    const_rom u_c1   (.a(ir1[4:0]), .d(crom1));
    const_rom u_c2   (.a(ir2[10:6]), .d(crom2));
    entry_rom u_ent  (.a(cmd), .d(entry));

    function [3:0] xlate;                  // page slot -> physical bank (with ladder swap)
        input [1:0] slot;
        input [15:0] p;
        input sw;
        reg [3:0] b;
        begin
            b = p[slot*4 +: 4];
            xlate = (sw && (b >= 4'd2) && (b <= 4'd5)) ? (b ^ 4'b0110) : b;
        end
    endfunction

    // ------------------------------------------------------------ stage 1
    wire [4:0] op1 = ir1[15:11];
    wire s1_rd = ((op1 >= OP_LD && op1 <= OP_XOR) || op1 == OP_MAC || op1 == OP_MACS
                  || op1 == OP_LDSW) && !ir1[5];
    wire [2:0] s1_word = (op1 == OP_LDSW) ? cnt[7:5] : ir1[2:0];
    wire [6:0] s1_addr = {xlate(ir1[4:3], pg, swap), s1_word};

    // ------------------------------------------------------------ stage 2
    wire [4:0] op2 = ir2[15:11];
    wire [2:0] la1 = ir2[5:3], lb1 = ir2[2:0];
    wire [31:0] ram_q;
    wire [31:0] opnd = ir2[5] ? rom_q : ram_q;
    wire [A-1:0] view = rot[0] ? {acc[A-1-NW:0], acc[A-1:A-NW]}
                      : rot[1] ? {acc[A-1-SW:0], acc[A-1:A-SW]} : acc;
    wire [A-1:0] view_sr = {{32{view[A-1]}}, view[A-1:32]};

    // snake product order of the multiplication controller
    wire [3:0] mj = mk - {1'b0, mi};
    wire [3:0] k1 = mk + 4'd1;
    wire [2:0] ilo  = (mk > {1'b0, lb1}) ? (mk[2:0] - lb1) : 3'd0;
    wire [2:0] ihi  = (mk < {1'b0, la1}) ? mk[2:0] : la1;
    wire [2:0] ilo1 = (k1 > {1'b0, lb1}) ? (k1[2:0] - lb1) : 3'd0;
    wire [2:0] ihi1 = (k1 < {1'b0, la1}) ? k1[2:0] : la1;
    wire [2:0] iend = mk[0] ? ilo : ihi;
    wire       colend = (mi == iend);
    wire       plast = colend && (mk == ({1'b0, la1} + {1'b0, lb1}));
    wire [3:0] nk = colend ? k1 : mk;
    wire [2:0] ni = colend ? (k1[0] ? ihi1 : ilo1) : (mk[0] ? mi - 3'd1 : mi + 3'd1);
    wire [3:0] nj = nk - {1'b0, ni};
    wire       chg_a = (ni != mi), chg_b = (nj != mj);

    wire is_mul = s2_valid && op2 == OP_MUL;
    wire is_macs = s2_valid && op2 == OP_MACS;
    wire is_mac = (s2_valid && op2 == OP_MAC) || is_macs;
    wire lastst = (step == (is_macs ? NS[3:0] : N[3:0]) - 4'd1);

    // multiplier operands: new values arrive at step 0 from the prefetch buffer or RAM
    wire [31:0] ma_eff = is_mac ? ((step == 0) ? opnd : ma)
                       : (step == 0 && a_src == S_PF)   ? pf
                       : (step == 0 && a_src == S_DOUT) ? ram_q : ma;
    wire [31:0] mb_new = is_mac ? crom2 : (b_src == S_PF) ? pf : ram_q;
    wire [NW-1:0] mb_eff = (step == 0 && (is_mac || b_src != S_KEEP))
                         ? {{(NW-32){1'b0}}, mb_new} : mb;
    wire [31+W:0] pp = ma_eff * mb_eff[W-1:0];
    wire [A-1:0] msum = ((step == 0) ? view : acc) + {{(A-32-W){1'b0}}, pp};
    // ROR W after each digit: the next digit's partial product lands W bits higher in the
    // true value. Exact while the true sum stays in [0, 2^67) (no carry crosses the wrap
    // point); programs keep acc >= 0 at MAC/MACS/MUL and the model asserts it.
    wire [A-1:0] mnext = {msum[W-1:0], msum[A-1:W]};
    wire [NW-1:0] mb_rot = {mb_eff[W-1:0], mb_eff[NW-1:W]};

    // MUL port use this cycle
    reg        m_rd, m_wr;
    reg  [6:0] m_addr;
    always @(*) begin
        m_rd = 1'b0; m_wr = 1'b0; m_addr = 7'd0;
        if (is_mul) begin
            case (mstate)
                M_PRE0: begin m_rd = 1'b1; m_addr = {xlate(2'd1, pg, swap), 3'd0}; end
                M_PRE1: begin m_rd = 1'b1; m_addr = {xlate(2'd2, pg, swap), 3'd0}; end
                M_PROD: if (!plast) begin
                    if (chg_a && chg_b) begin
                        if (step == 0) begin m_rd = 1'b1; m_addr = {xlate(2'd1, pg, swap), ni}; end
                        if (step == 1) begin m_rd = 1'b1; m_addr = {xlate(2'd2, pg, swap), nj[2:0]}; end
                    end else if (step == 1) begin
                        m_rd = 1'b1;
                        m_addr = chg_a ? {xlate(2'd1, pg, swap), ni} : {xlate(2'd2, pg, swap), nj[2:0]};
                    end
                end
                default: begin   // M_WR, M_FIN
                    m_wr = 1'b1;
                    m_addr = {xlate(wi[3] ? 2'd3 : 2'd0, pg, swap), wi[2:0]};
                end
            endcase
        end
    end

    wire s2_st   = s2_valid && (op2 == OP_ST || op2 == OP_STS);
    wire s2_port = s2_st || m_rd || m_wr;
    wire s2_done = !s2_valid || (is_mul ? (mstate == M_FIN) : is_mac ? lastst : 1'b1);
    wire advance = busy && s2_done && !(s1_rd && s2_port);

    // ------------------------------------------------------------ RAM port
    wire        io_ok = !busy && (io_we || io_re);
    wire        ram_en = s2_port || (advance && s1_rd) || io_ok;
    wire        ram_we = s2_st || m_wr || (!busy && io_we);
    wire [6:0]  ram_a  = s2_st ? s2_addr : (m_rd || m_wr) ? m_addr
                       : busy ? s1_addr : {3'b000, io_addr};
    wire [31:0] ram_wd = s2_st ? view[31:0] : busy ? view[31:0] : io_wdata;
    mb_ram u_ram (.clk(clk), .en(ram_en), .we(ram_we), .addr(ram_a), .wdata(ram_wd), .rdata(ram_q));
    assign io_rdata = ram_q;

    // ------------------------------------------------------------ sequential
    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; s2_valid <= 1'b0; pc <= 11'd0; acc <= {A{1'b0}}; rot <= 2'b00;
            swap <= 1'b0; flag <= 1'b0; page <= 6'd0; cnt <= 8'd0; ret <= 11'd0;
            step <= 4'd0; mstate <= M_PRE0;
        end else if (!busy) begin
            if (start && cmd != 3'd0) begin
                busy <= 1'b1;
                pc <= entry;
                s2_valid <= 1'b0;
            end
        end else begin
            // ---- stage 1
            if (advance) begin
                s2_valid <= (op1 != OP_HALT);
                ir2 <= ir1;
                s2_addr <= s1_addr;
                rom_q <= crom1;
                s2_bit <= cnt[4:0];
                step <= 4'd0;
                mstate <= M_PRE0;
                pc <= pc + 11'd1;
                case (op1)
                    OP_HALT: begin busy <= 1'b0; pc <= pc; end
                    OP_MPS:  page <= ir1[5:0];
                    OP_JMP:  pc <= ir1[10:0];
                    OP_CALL: begin ret <= pc + 11'd1; pc <= ir1[10:0]; end
                    OP_RET:  pc <= ret;
                    OP_LOOP: if (cnt != 8'd0) begin cnt <= cnt - 8'd1; pc <= ir1[10:0]; end
                    OP_SETC: cnt <= ir1[7:0];
                    OP_SF:   flag <= 1'b1;
                    OP_CF:   flag <= 1'b0;
                    OP_JF:   if (flag) pc <= ir1[10:0];
                    OP_CSW:  swap <= 1'b0;
                    default: ;
                endcase
            end else if (s2_done) begin
                s2_valid <= 1'b0;
            end
            // ---- stage 2
            if (s2_valid) begin
                case (op2)
                    OP_LD:  begin acc <= {{(A-32){1'b0}}, opnd}; rot <= 2'b00; end
                    OP_ADD: begin acc <= view + {{(A-32){1'b0}}, opnd}; rot <= 2'b00; end
                    OP_SUB: begin acc <= view - {{(A-32){1'b0}}, opnd}; rot <= 2'b00; end
                    OP_AND: begin acc <= {{(A-32){1'b0}}, view[31:0] & opnd}; rot <= 2'b00; end
                    OP_OR:  begin acc <= {{(A-32){1'b0}}, view[31:0] | opnd}; rot <= 2'b00; end
                    OP_XOR: begin acc <= {{(A-32){1'b0}}, view[31:0] ^ opnd}; rot <= 2'b00; end
                    OP_ST:  begin acc <= view; rot <= 2'b00; end
                    OP_STS, OP_SHR: begin acc <= view_sr; rot <= 2'b00; end
                    OP_CLR: begin acc <= {A{1'b0}}; rot <= 2'b00; end
                    OP_ROL: begin
                        rot <= 2'b00;
                        case (ir2[1:0])
                            2'd0: acc <= {{(A-32){1'b0}}, view[24:0], view[31:25]};
                            2'd1: acc <= {{(A-32){1'b0}}, view[22:0], view[31:23]};
                            2'd2: acc <= {{(A-32){1'b0}}, view[18:0], view[31:19]};
                            default: acc <= {{(A-32){1'b0}}, view[13:0], view[31:14]};
                        endcase
                    end
                    OP_LDSW: swap <= ram_q[s2_bit];
                    OP_MAC, OP_MACS: begin
                        acc <= mnext; rot <= is_macs ? 2'b10 : 2'b01; mb <= mb_rot;
                        if (step == 0) ma <= ma_eff;
                        step <= lastst ? 4'd0 : step + 4'd1;
                    end
                    OP_MUL: begin
                        case (mstate)
                            M_PRE0: begin
                                acc <= {A{1'b0}}; rot <= 2'b00; mstate <= M_PRE1;
                            end
                            M_PRE1: begin
                                pf <= ram_q; mk <= 4'd0; mi <= 3'd0; wi <= 4'd0;
                                a_src <= S_PF; b_src <= S_DOUT; step <= 4'd0; mstate <= M_PROD;
                            end
                            M_PROD: begin
                                acc <= mnext; rot <= 2'b01; mb <= mb_rot;
                                if (step == 0) ma <= ma_eff;
                                if (step == 1) pf <= ram_q;
                                if (lastst) begin
                                    step <= 4'd0;
                                    mk <= nk; mi <= ni; mlast <= plast;
                                    a_src <= (chg_a && chg_b) ? S_PF : chg_a ? S_DOUT : S_KEEP;
                                    b_src <= chg_b ? S_DOUT : S_KEEP;
                                    if (colend) mstate <= M_WR;
                                end else begin
                                    step <= step + 4'd1;
                                end
                            end
                            M_WR: begin
                                acc <= view_sr; rot <= 2'b00; wi <= wi + 4'd1;
                                mstate <= mlast ? M_FIN : M_PROD;
                            end
                            default: begin   // M_FIN
                                acc <= {A{1'b0}}; rot <= 2'b00;
                            end
                        endcase
                    end
                    default: ;
                endcase
            end
        end
    end
endmodule
