# SPDX-License-Identifier: MIT
"""The demo's sensor node as MSP430FR5969 firmware (demo/node.c on the simulated board,
platforms/msp430fr5969/), with the 32-bit or the 16-bit hardware multiplier.

    from motebox.demo_msp430 import run_node_msp430
    sent = run_node_msp430(server_pk, node_sk, readings, mpy=32)
    # sent = {"node_pk", "nonce", "ciphertext", "tag": bytes,
    #         "cycles": {name: int}, "stack": int, "where": str}

run_node_msp430 writes the inputs into a generated header (node_input.h: the server's
public key, the node's 32 secret bytes, a fresh 24-byte nonce from os.urandom standing in
for the node's TRNG, and the readings, which stay in FRAM), compiles demo/node.c with
clang -O2 against build/msp430/O2/libmotebox.a and the board runtime for that multiplier
(made by `make msp430` if missing), runs it on the motebox MSP430X simulator and parses
what the node sent on its console. It verifies nothing: the caller (the server side,
motebox.demo) opens the box with libsodium.

`python -m motebox.demo_msp430 [--mpy 16]` (`make demo-msp430`) runs the whole demo.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from . import target_msp430 as t430
from .node_io import check_args, node_header, parse_node_output

REPO = t430.REPO
PLAT = REPO / "platforms" / "msp430fr5969"
CFLAGS = ["--target=msp430", "-std=c99", "-O2", "-ffreestanding", "-ffunction-sections",
          "-fdata-sections", "-DMB_RADIX=16", "-Wall", "-Wextra", "-Werror"]
# FRAM below the vectors is 48 KB; the node firmware and library take about 15 KB.
MAX_READINGS = 24 * 1024


def _libraries(mpy):
    lib = t430.build_dir() / "O2" / "libmotebox.a"
    rt = t430.build_dir() / "rt" / f"mpy{mpy}" / "libfr5969.a"
    missing = [str(p) for p in (lib, rt) if not p.exists()]
    if missing:
        build = t430.build_root()
        subprocess.run(["make", "-s", "-C", str(REPO), f"BUILD={build}", *missing], check=True)
    return lib, rt


def build_node(server_pk, node_sk, nonce, readings, workdir, mpy=32):
    """Compile demo/node.c with these inputs for the FR5969; returns the ELF path."""
    work = Path(workdir)
    header = node_header(server_pk, node_sk, nonce, readings, "motebox.demo_msp430")
    (work / "node_input.h").write_text(header)
    lib, rt = _libraries(mpy)
    inc = [f"-I{p}" for p in (work, REPO / "include", REPO / "platforms", REPO / "tests" / "target")]
    objs = []
    for src in (REPO / "demo" / "node.c", REPO / "tests" / "target" / "tprint.c"):
        obj = work / (src.stem + ".o")
        subprocess.run(["clang", *CFLAGS, *inc, "-c", str(src), "-o", str(obj)], check=True)
        objs.append(str(obj))
    elf = work / "node.elf"
    subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(PLAT / "fr5969.ld"), "--gc-sections",
                    "-o", str(elf), *objs, str(lib), str(rt)], check=True)
    return elf


def run_node_msp430(server_pk: bytes, node_sk: bytes, readings: bytes, mpy: int = 32) -> dict:
    """Run the sensor node on the simulated MSP430FR5969 with the 32- or 16-bit multiplier;
    returns what it sent (see the module doc)."""
    check_args(server_pk, node_sk)
    if mpy not in t430.MPYS:
        raise ValueError("mpy must be 32 or 16")
    readings = bytes(readings)
    if len(readings) > MAX_READINGS:
        raise ValueError(f"readings: at most {MAX_READINGS} bytes fit the node's FRAM")
    if not t430.have_sim():
        raise RuntimeError(f"{t430.sim_path()} missing: run `make` (builds the MSP430 simulator)")
    nonce = os.urandom(24)
    with tempfile.TemporaryDirectory(prefix="motebox-node430-") as tmp:
        elf = build_node(server_pk, node_sk, nonce, readings, tmp, mpy)
        r = t430.run(elf, mpy=mpy, timeout=1800)
    if r.status != 0:
        raise RuntimeError(f"node firmware exited with status {r.status}:\n{r.stdout}\n{r.stderr}")
    sent = parse_node_output(r.stdout, nonce)
    sent["where"] = (f"MSP430FR5969 firmware (demo/node.c, clang -O2, radix 2^16) on the motebox "
                     f"MSP430X simulator, {mpy}-bit multiplier, {r.cycles:,} cycles in all "
                     f"({r.cycles / 8e6:.2f} s at 8 MHz)")
    return sent


def main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox.demo_msp430", add_help=False)
    ap.add_argument("--mpy", type=int, choices=[32, 16], default=32)
    args, rest = ap.parse_known_args(argv if argv is not None else sys.argv[1:])
    import importlib
    from . import demo
    if args.mpy != 32:
        # demo.main looks the runner up in this module (under its package name, also when
        # we run as __main__): hand it one bound to the chosen multiplier.
        mod = importlib.import_module("motebox.demo_msp430")
        base = mod.run_node_msp430
        mod.run_node_msp430 = lambda server_pk, node_sk, readings: base(server_pk, node_sk,
                                                                        readings, args.mpy)
    return demo.main(["--node", "msp430", *rest])


if __name__ == "__main__":
    sys.exit(main())
