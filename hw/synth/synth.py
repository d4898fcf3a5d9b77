# SPDX-License-Identifier: MIT
"""Yosys synthesis of mb_asip for one digit size W to the generic GE library (ge.lib).
Returns the area per module in GE, the flip-flop count and the longest combinational path
in gates (ltp, flip-flops and the RAM macro cut)."""
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "ge.lib")
RTL = os.path.join(HERE, "..", "rtl", "mb_asip.v")
BB = os.path.join(HERE, "mb_ram_bb.v")

SCRIPT = """read_liberty -lib {lib}
read_verilog {rtl} {rom}
read_verilog -lib {bb}
chparam -set W {W} mb_asip
hierarchy -top mb_asip
synth -top mb_asip
dfflegalize -cell $_DFF_P_ 01
dfflibmap -liberty {lib}
abc -liberty {lib}
opt_clean
tee -o {tmp}/stat.txt stat -liberty {lib}
flatten
delete t:mb_ram t:DFF
tee -o {tmp}/ltp.txt ltp -noff
"""


def synth(W, rom_v):
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "s.ys")
        with open(script, "w") as f:
            f.write(SCRIPT.format(lib=LIB, rtl=RTL, rom=rom_v, bb=BB, W=W, tmp=tmp))
        subprocess.run(["yosys", "-q", "-s", script], check=True, capture_output=True)
        stat = open(os.path.join(tmp, "stat.txt")).read()
        ltp = open(os.path.join(tmp, "ltp.txt")).read()
    area = {m: float(a) for m, a in re.findall(r"Chip area for module '\\(\w+)': ([\d.]+)", stat)}
    mods = re.split(r"=== (\w+) ===", stat)
    dff = 0
    for name, body in zip(mods[1::2], mods[2::2]):
        if name == "mb_asip":
            m = re.search(r"^\s+DFF\s+(\d+)", body, re.M)
            dff = int(m.group(1)) if m else 0
    depth = int(re.search(r"Longest topological path in mb_asip \(length=(\d+)\)", ltp).group(1))
    return {"area": area, "dff": dff, "depth": depth}


if __name__ == "__main__":
    import sys
    print(synth(int(sys.argv[1]), sys.argv[2]))
