# SPDX-License-Identifier: MIT
"""The RTL is accepted by Verilator (-Wall lint clean), Icarus Verilog and Yosys;
the assembler rejects malformed programs."""
import shutil
import subprocess

import pytest

from hwsim import ALL_W, BUILD, REPO, model_for, need
from asm import AsmError, Assembler  # noqa: E402  (path set up by hwsim)

RTL = [str(REPO / "hw/rtl/mb_asip.v"), str(REPO / "hw/rtl/mb_ram.v")]


def rom():
    return str(need(BUILD / "rom.v"))


@pytest.mark.parametrize("W", ALL_W)
def test_verilator_lint_clean(W):
    r = subprocess.run(["verilator", "--lint-only", "-Wall", "-Wno-DECLFILENAME", f"-GW={W}",
                        "--top-module", "mb_asip", *RTL, rom()], capture_output=True, text=True)
    assert r.returncode == 0 and "%Warning" not in r.stderr, r.stderr


def test_yosys_reads_and_elaborates():
    r = subprocess.run(["yosys", "-q", "-p",
                        f"read_verilog {' '.join(RTL)} {rom()}; chparam -set W 2 mb_asip; "
                        "hierarchy -check -top mb_asip; proc; check -assert"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_icarus_short_run(tmp_path):
    """Icarus (-g2005) simulates the design: write/read R0/R1, FINALIZE's busy cycles
    equal the model's and R0[0..15] comes back zero."""
    sim = tmp_path / "sim"
    r = subprocess.run(["iverilog", "-g2005", "-Wall", "-o", str(sim),
                        str(REPO / "hw/tb/tb_icarus.v"), *RTL, rom()], capture_output=True, text=True)
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr
    script = tmp_path / "script.txt"
    words = [0x01234567 * (i + 1) & 0xFFFFFFFF for i in range(16)]
    lines = [f"w {i} {w:08x}" for i, w in enumerate(words)]
    lines += [f"r {i}" for i in range(16)] + ["c 6"] + [f"r {i}" for i in range(4)] + ["q"]
    script.write_text("\n".join(lines) + "\n")
    out = subprocess.run(["vvp", "-n", str(sim), f"+script={script}"], capture_output=True,
                         text=True, timeout=120).stdout.split()
    assert [int(x, 16) for x in out[:16]] == words
    m = model_for(16)
    for b in (0, 1):
        m.write(b, b"".join(w.to_bytes(4, "little") for w in words[8 * b:8 * b + 8]))
    assert out[16:18] == ["cycles", str(m.run("FINALIZE"))]
    assert out[18:22] == ["00000000"] * 4


@pytest.mark.slow
def test_icarus_full_dh1(tmp_path):
    """Slow (~20-50 s): a whole DH-1 at W = 16 under Icarus against libsodium."""
    import nacl.bindings as nb
    sim = tmp_path / "sim"
    subprocess.run(["iverilog", "-g2005", "-o", str(sim), "-P", "tb_icarus.W=16",
                    str(REPO / "hw/tb/tb_icarus.v"), *RTL, rom()], check=True)
    sk = bytes(range(1, 33))
    base = (9).to_bytes(32, "little")
    data = sk + base
    lines = [f"w {i} {int.from_bytes(data[4*i:4*i+4], 'little'):08x}" for i in range(16)]
    lines += ["c 1"] + [f"r {8 + i}" for i in range(8)] + ["q"]
    (tmp_path / "s.txt").write_text("\n".join(lines) + "\n")
    out = subprocess.run(["vvp", "-n", str(sim), f"+script={tmp_path / 's.txt'}"],
                         capture_output=True, text=True).stdout.split()
    pk = b"".join(int(x, 16).to_bytes(4, "little") for x in out[2:10])
    assert pk == nb.crypto_scalarmult_base(sk)


@pytest.mark.parametrize("src,msg", [
    ("FOO 1.2", "unknown opcode"),
    ("LD 4.0", "bad memory operand"),
    ("ST #K1", "cannot store to ROM"),
    ("MAC 1.0, 2.0", "must be a #constant"),
    ("JMP nowhere", "unknown label"),
    ("MUL 9, 1", "MUL lengths"),
])
def test_assembler_rejects(tmp_path, src, msg):
    f = tmp_path / "p.s"
    f.write_text(".const K1 1\n" + "".join(f".entry {c} x\n" for c in
                 ("DH1", "DH2", "INIT", "FIRST", "UPDATE", "FINALIZE", "DECRYPT")) + "x: " + src + "\n")
    with pytest.raises(AsmError, match=msg):
        a = Assembler()
        a.load(str(f))
        a.assemble()


def test_tools_present():
    for tool in ("verilator", "iverilog", "vvp", "yosys"):
        assert shutil.which(tool), tool
