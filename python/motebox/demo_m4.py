# SPDX-License-Identifier: MIT
"""The demo's sensor node as Cortex-M4 firmware (demo/node.c on the mps2-an386 board).

    from motebox.demo_m4 import run_node_m4
    sent = run_node_m4(server_pk, node_sk, readings)
    # sent = {"node_pk", "nonce", "ciphertext", "tag": bytes,
    #         "cycles": {name: int} or None, "stack": int, "where": str}

run_node_m4 writes the inputs into a generated header (node_input.h: the server's public
key, the node's 32 secret bytes and a fresh 24-byte nonce from os.urandom, standing in for
the node's TRNG, and the readings), compiles demo/node.c against the Cortex-M4 library
(build/m4/O2/libmotebox.a, made by `make m4` if missing), runs it in the motebox cycle
model (cycle figures per step) or, without the model, under QEMU (no cycle figures), and
parses what the node sent over semihosting. It does not verify anything: the caller (the
server side, motebox.demo) opens the box with libsodium.

`python -m motebox.demo_m4` (`make demo-m4`) runs the whole demo with this node.
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from . import target_m4
from .node_io import check_args, node_header, parse_node_output

REPO = target_m4.REPO
PLAT = REPO / "platforms" / "mps2-an386"
CFLAGS = ["-std=c99", "-mcpu=cortex-m4", "-mthumb", "-O2", "-ffreestanding",
          "-ffunction-sections", "-fdata-sections", "-fno-tree-loop-distribute-patterns",
          "-DMB_RADIX=32", "-Wall", "-Wextra", "-Werror"]


def _variant():
    """The fastest build: with the assembly backend when this tree has one."""
    return "O2-asm" if (REPO / "arch" / "cortex-m4" / "files.mk").exists() else "O2"


def _library():
    lib = target_m4.build_dir() / _variant() / "libmotebox.a"
    if not lib.exists():
        build = target_m4.build_dir().parent
        subprocess.run(["make", "-s", "-C", str(REPO), f"BUILD={build}", str(lib)], check=True)
    return lib


def build_node(server_pk, node_sk, nonce, readings, workdir):
    """Compile demo/node.c with these inputs; returns the ELF path."""
    work = Path(workdir)
    header = node_header(server_pk, node_sk, nonce, readings, "motebox.demo_m4")
    (work / "node_input.h").write_text(header)
    elf = work / "node.elf"
    srcs = [REPO / "demo" / "node.c", PLAT / "startup.c", PLAT / "hal.c", PLAT / "mem.c",
            REPO / "tests" / "target" / "tprint.c"]
    inc = [f"-I{p}" for p in (work, REPO / "include", REPO / "platforms", REPO / "tests" / "target")]
    subprocess.run(["arm-none-eabi-gcc", *CFLAGS, *inc, *map(str, srcs), str(_library()),
                    "-nostdlib", "-nostartfiles", "-T", str(PLAT / "link.ld"),
                    "-Wl,--gc-sections", "-lgcc", "-o", str(elf)], check=True)
    return elf


def run_node_m4(server_pk: bytes, node_sk: bytes, readings: bytes) -> dict:
    """Run the sensor node on the emulated Cortex-M4; returns what it sent (see module doc).
    Cycle figures come from the cycle model; under the QEMU fallback `cycles` is None."""
    check_args(server_pk, node_sk)
    nonce = os.urandom(24)
    with tempfile.TemporaryDirectory(prefix="motebox-node-") as tmp:
        elf = build_node(server_pk, node_sk, nonce, bytes(readings), tmp)
        if target_m4.have_model():
            from .sim import m4
            r = m4.run(elf)
            status, out = r.exit_code, r.stdout.decode(errors="replace")
            where = (f"Cortex-M4 firmware (demo/node.c, gcc -O2, library build {_variant()}) "
                     f"in the motebox cycle model, {r.cycles:,} cycles in all")
            model = True
        else:
            status, out = target_m4.run_qemu(elf, timeout=600)
            where = (f"Cortex-M4 firmware (demo/node.c, gcc -O2, library build {_variant()}) "
                     "under QEMU mps2-an386 (no cycle model)")
            model = False
    if status != 0:
        raise RuntimeError(f"node firmware exited with status {status}:\n{out}")
    sent = parse_node_output(out, nonce)
    sent["cycles"] = sent["cycles"] if model else None
    sent["where"] = where
    return sent


def main(argv=None):
    from . import demo
    return demo.main(["--node", "m4", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    sys.exit(main())
