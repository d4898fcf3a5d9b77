# SPDX-License-Identifier: MIT
"""Cortex-M4 instruction timing, as data, from the Cortex-M4 Technical Reference Manual.

Source: ARM Cortex-M4 Processor TRM r0p1 (ARM DDI 0439B / 100166_0001_00_en), section 3.3
"Instruction set summary": Table 3-1 "Cortex-M4 instruction set summary" (cycles column and
its notes) and section 3.3.2 "Load/store timings". Zero wait-state memory throughout.
docs/M4_TIMING.md is the human-readable table: every constant here has a row there.

`classify` turns one decoded instruction (capstone) into a `Timing`; `step` applies the
rules that depend on the previous instruction (load/store pipelining, address stall, IT
skips) and `refill` gives P for a taken branch. The simulator (machine.py) runs them once per
basic block and caches the result.
"""
from collections import namedtuple

import capstone
from capstone import arm_const as A

# Instruction kinds.
ALU = 0      # single-cycle data processing and multiply (incl. long/accumulate)
LS = 1       # single load/store: 2 cycles, pipelines with a neighbouring LS (Table 3-1 note)
LSD = 2      # LDRD/STRD: 1 + N (N = 2), never pipelined with neighbours (3.3.2)
LSM = 3      # LDM/STM/PUSH/POP: 1 + N, never pipelined with neighbours (3.3.2)
BR = 4       # branch / any write to PC other than a load: 1 + P
DIV = 5      # SDIV/UDIV: 2..12 (early termination, data dependent): modelled at 12
OTHER = 6    # fixed cost, neither DP nor memory (IT, compare, hints, barriers, BKPT)

# --- the table (cycles; see docs/M4_TIMING.md for the row-by-row references) -------------
C_ALU = 1            # Table 3-1: MOV/ADD/.../MUL/MLA/MLS/SMULL/UMULL/SMLAL/UMLAL/UMAAL/DSP: 1
C_LS = 2             # Table 3-1: LDR/LDRB/LDRH/LDRSB/LDRSH/STR/STRB/STRH/LDREX/STREX: 2
C_LS_PIPELINED = 1   # Table 3-1 note: neighbouring single load/store complete in 1 cycle
C_MULTI_BASE = 1     # Table 3-1: LDM/STM/PUSH/POP/LDRD/STRD: 1 + N
C_DIV = 12           # Table 3-1: SDIV/UDIV 2 to 12; model charges the documented maximum
C_BRANCH_BASE = 1    # Table 3-1: B/BL/BX/BLX/CBZ/MOV PC: 1 + P; not-taken Bcc/CBZ: 1
C_TB_BASE = 2        # Table 3-1: TBB/TBH: 2 + P
C_LDR_PC_BASE = 2    # Table 3-1: LDR PC: 2 + P
P_REFILL = 1         # Table 3-1: P = 1..3; 1 = the minimum (fetch of an aligned target)
P_LOAD = 3           # 3.3.2: loads to PC and TBB/TBH: "three cycles for the pipeline reload"
P_UNALIGNED_WIDE = 1  # refill +1 when the target is a 32-bit instruction not word aligned
P_MAX = 3            # Table 3-1: P ranges from 1 to 3
AGU_STALL = 1        # 3.3.2: address depends on the preceding data-processing result: +1
C_SKIPPED = 1        # conditional instruction failing its IT condition: issued as a NOP
C_IT = 1             # Table 3-1: IT 1
C_BARRIER_DMB = 1    # Table 3-1: DMB/DSB 1 + B, B minimum 0
C_ISB = 1 + P_REFILL  # Table 3-1: ISB 1 + B, B = a pipeline refill
C_BKPT = 1           # Table 3-1 gives no count; the core halts (CYCCNT stops) in debug state
C_SYS = 1            # Table 3-1: MRS/MSR/CPSID/CPSIE "1 or 2": lower bound (no rule given)
C_VFP = 1            # FPU data processing (not used by motebox): 1 (TRM chapter 7 table)
C_VDIV = 14          # TRM chapter 7 table: VDIV/VSQRT 14

Timing = namedtuple(
    "Timing",
    "kind cycles n addr_regs load_dests writes pkind it_cond cond_branch writes_pc sp_delta "
    "wide size name",
)
# pkind: None, "early" (immediate target), "late" (register target), "load" (target loaded
#   from memory: P = 3); early and late get the same P (docs/M4_TIMING.md row 16)
# it_cond: capstone condition code when the instruction sits in an IT block, else 0
# cond_branch: conditional branch outside IT (Bcc, CBZ, CBNZ): 1 or 1 + P
# sp_delta: static change of SP, or None when SP is written with a run-time value

_REGNUM = {f"r{i}": i for i in range(13)}
_REGNUM.update(sb=9, sl=10, fp=11, ip=12, sp=13, lr=14, pc=15)

_LOADS = {"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrt", "ldrbt", "ldrht", "ldrsbt",
          "ldrsht", "ldrex", "ldrexb", "ldrexh", "pld", "pli"}
_STORES = {"str", "strb", "strh", "strt", "strbt", "strht", "strex", "strexb", "strexh"}
_DOUBLE = {"ldrd", "strd"}
_MULTI_LOAD = {"ldm", "ldmia", "ldmdb", "ldmda", "ldmib", "pop", "ldmfd", "ldmea"}
_MULTI_STORE = {"stm", "stmia", "stmdb", "stmda", "stmib", "push", "stmfd", "stmea"}
_VFP_MULTI = {"vpush", "vpop", "vldmia", "vldmdb", "vstmia", "vstmdb", "vldm", "vstm"}
_VFP_SINGLE = {"vldr", "vstr"}
_DIVS = {"sdiv", "udiv"}
_DIRECT_BRANCH = {"b", "bl", "cbz", "cbnz"}
_REG_BRANCH = {"bx", "blx"}
_TABLE_BRANCH = {"tbb", "tbh"}
_BARRIERS = {"dmb", "dsb"}
_SYS = {"mrs", "msr", "cpsid", "cpsie", "cps"}
_HALTS = {"bkpt"}
_NOT_DP = {"it", "nop", "yield", "sev", "wfe", "wfi", "cmp", "cmn", "tst", "teq"}


def regnum(insn, reg):
    return _REGNUM.get(insn.reg_name(reg), -1)


def _reglist(insn):
    return [regnum(insn, op.reg) for op in insn.operands if op.type == A.ARM_OP_REG]


def _mem_regs(insn):
    regs = set()
    for op in insn.operands:
        if op.type == A.ARM_OP_MEM:
            if op.mem.base:
                regs.add(regnum(insn, op.mem.base))
            if op.mem.index:
                regs.add(regnum(insn, op.mem.index))
    return frozenset(regs)


def _written(insn):
    try:
        _, written = insn.regs_access()
    except capstone.CsError:
        return frozenset()
    return frozenset(r for r in (regnum(insn, w) for w in written) if 0 <= r <= 15)


def _sp_delta(insn, name, writes):
    """Static SP change of one instruction (None: set at run time)."""
    if 13 not in writes:
        return 0
    ops = insn.operands
    if name == "push" or (name in ("stmdb", "stmfd") and regnum(insn, ops[0].reg) == 13):
        return -4 * (len(ops) - (0 if name == "push" else 1))
    if name == "pop" or (name in ("ldm", "ldmia", "ldmfd") and regnum(insn, ops[0].reg) == 13):
        return 4 * (len(ops) - (0 if name == "pop" else 1))
    if name in ("vpush", "vpop"):
        words = sum(2 if insn.reg_name(op.reg).startswith("d") else 1 for op in ops)
        return 4 * words * (-1 if name == "vpush" else 1)
    if name in ("sub", "subw", "add", "addw") and ops and regnum(insn, ops[0].reg) == 13:
        imm = ops[-1]
        if imm.type == A.ARM_OP_IMM and (len(ops) == 2 or regnum(insn, ops[1].reg) == 13):
            return -imm.imm if name.startswith("sub") else imm.imm
        return None
    for op in ops:  # pre/post-indexed access with SP as the written-back base
        if op.type == A.ARM_OP_MEM and regnum(insn, op.mem.base) == 13:
            disp = op.mem.disp
            post = [o for o in ops if o.type == A.ARM_OP_IMM]
            if post:
                disp = post[-1].imm if not getattr(op, "subtracted", False) else -post[-1].imm
            return disp
    return None


def classify(insn, it_cond=0):
    """Timing of one capstone instruction; it_cond = its IT condition (0 when not in IT)."""
    name = insn.insn_name()
    size = insn.size
    wide = size == 4
    writes = _written(insn)
    writes_pc = 15 in writes
    sp_delta = _sp_delta(insn, name, writes)
    cond_branch = False
    addr_regs = frozenset()
    load_dests = frozenset()
    n = 0
    pkind = None

    def t(kind, cycles):
        return Timing(kind, cycles, n, addr_regs, load_dests, writes, pkind, it_cond,
                      cond_branch, writes_pc, sp_delta, wide, size, name)

    if name in _LOADS or name in _STORES:
        addr_regs = _mem_regs(insn)
        if name in _LOADS and name not in ("pld", "pli"):
            load_dests = frozenset(_reglist(insn)[:1])
        if writes_pc:
            pkind = "load"
            return t(BR, C_LDR_PC_BASE)
        return t(LS, C_LS)
    if name in _DOUBLE:
        addr_regs = _mem_regs(insn)
        n = 2
        return t(LSD, C_MULTI_BASE + n)
    if name in _MULTI_LOAD or name in _MULTI_STORE:
        regs = _reglist(insn)
        if name in ("push", "pop"):
            addr_regs = frozenset({13})
        else:
            addr_regs = frozenset(regs[:1])
            regs = regs[1:]
        n = len(regs)
        if writes_pc:
            pkind = "load"
            return t(BR, C_MULTI_BASE + n)
        return t(LSM, C_MULTI_BASE + n)
    if name in _VFP_MULTI:
        n = sum(2 if insn.reg_name(op.reg).startswith("d") else 1
                for op in insn.operands if op.type == A.ARM_OP_REG
                and insn.reg_name(op.reg)[0] in "sd")
        addr_regs = frozenset({13}) if name in ("vpush", "vpop") else _mem_regs(insn)
        return t(LSM, C_MULTI_BASE + n)
    if name in _VFP_SINGLE:
        addr_regs = _mem_regs(insn)
        return t(LS, C_LS)
    if name in _DIVS:
        return t(DIV, C_DIV)
    if name in _TABLE_BRANCH:
        addr_regs = _mem_regs(insn)
        pkind = "load"
        return t(BR, C_TB_BASE)
    if name in _DIRECT_BRANCH:
        pkind = "early"
        cond_branch = name in ("cbz", "cbnz") or (it_cond == 0 and insn.cc not in (0, A.ARM_CC_AL))
        return t(BR, C_BRANCH_BASE)
    if name in _REG_BRANCH or writes_pc:
        pkind = "late"
        return t(BR, C_BRANCH_BASE)
    if name == "it":
        return t(OTHER, C_IT)
    if name in _BARRIERS:
        return t(OTHER, C_BARRIER_DMB)
    if name == "isb":
        return t(OTHER, C_ISB)
    if name in _HALTS:
        return t(OTHER, C_BKPT)
    if name in _SYS:
        return t(OTHER, C_SYS)
    if name in ("vdiv", "vsqrt"):
        return t(OTHER, C_VDIV)
    if name.startswith("v"):
        return t(OTHER, C_VFP)
    if name in _NOT_DP:
        return t(OTHER, C_ALU)
    return t(ALU, C_ALU)


# Neutral state: what precedes the first instruction after a branch (pipeline refilled).
NEUTRAL = None


def step(tm, prev, skipped=False, why=None):
    """Cycles of one instruction given the previous one's Timing (or NEUTRAL).

    Returns (cycles, state for the next instruction). Branch refill (P) is not included:
    it depends on whether the branch is taken and on its target, see `refill`. If `why`
    is a dict, the cycles are also added to it by rule (for --profile's breakdown).
    """
    if skipped:
        if why is not None:
            why["skipped"] = why.get("skipped", 0) + C_SKIPPED
        return C_SKIPPED, NEUTRAL
    kind = tm.kind
    cycles = tm.cycles
    rule = None
    if tm.addr_regs and prev is not NEUTRAL:
        # 3.3.2: a load/store whose address uses the result of the preceding data-processing
        # instruction stalls one cycle (no forwarding path to the address generator).
        if prev.kind in (ALU, DIV) and not prev.addr_regs and (prev.writes & tm.addr_regs):
            cycles += AGU_STALL
            rule = "address_stall"
        # Table 3-1 note: neighbouring single loads/stores pipeline their address and data
        # phases; 3.3.2: not when the address needs the previous load's destination.
        elif kind == LS and prev.kind == LS and not (prev.load_dests & tm.addr_regs):
            cycles = C_LS_PIPELINED
            rule = "ls_pipelined"
    if why is not None:
        _account(why, tm, rule)
    # only a single load/store or a data-processing result can affect the next instruction
    return cycles, (tm if kind in (ALU, LS, DIV) else NEUTRAL)


_KIND_NAMES = {ALU: "alu_mul", LS: "load_store", LSD: "ldrd_strd", LSM: "ldm_stm_push_pop",
               BR: "branch_base", DIV: "divide", OTHER: "other"}


def _account(why, tm, rule):
    name = _KIND_NAMES[tm.kind]
    why[name] = why.get(name, 0) + tm.cycles
    if rule == "address_stall":
        why[rule] = why.get(rule, 0) + AGU_STALL
    elif rule == "ls_pipelined":   # negative: cycles saved
        why[rule] = why.get(rule, 0) - (tm.cycles - C_LS_PIPELINED)


def refill(tm, target_wide_unaligned, why=None):
    """P for a taken branch `tm` whose target's first instruction is (not) a misaligned
    32-bit instruction."""
    if tm.pkind == "load":
        p = P_LOAD
    else:
        p = P_REFILL
        if target_wide_unaligned:
            p += P_UNALIGNED_WIDE
        p = min(p, P_MAX)
    if why is not None:
        why["refill"] = why.get("refill", 0) + p
    return p
