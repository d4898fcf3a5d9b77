# SPDX-License-Identifier: MIT
"""The library built the way "compile every file in the folder" build systems build it
(Arduino, PlatformIO's default, Zephyr or CMake globs, vendor IDEs): every .c and .S
under src/ and arch/<chip>/, with no -D flag (or only the ones a user sets on purpose),
the backend picked by src/util/backend.h from the compiler's predefined macros.

For each target:
- every file compiles warning-free (the project's warnings, plus -Wundef: a file that
  tests a macro in #if without including the header defining it is caught);
- the files that compile to something are exactly those of the project's own list for
  that build (cmake/lib-sources.make over mk/lib.mk and arch/<chip>/files.mk): the
  macros and the Makefile's lists agree;
- the objects link into the target suite (tests/target/suite.c, tiny profile) and it
  passes: Cortex-M4 in the cycle model (python/motebox_tools/sim/m4), MSP430X (both
  multipliers) in build/sim/msp430sim; on the host, a shared library checked against
  PyNaCl (libsodium) and cryptography (OpenSSL)."""
import io
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from conftest import BUILD, REPO

sys.path.insert(0, str(REPO / "python"))
import motebox  # noqa: E402

INC = ["-I" + str(REPO / "include"), "-I" + str(REPO / "src")]
M4_FLAGS = ["-mcpu=cortex-m4", "-mthumb"]
# What firmware projects set anyway: no libc calls for our loops, sections for --gc-sections.
FREESTANDING = ["-ffreestanding", "-ffunction-sections", "-fdata-sections"]
M4_PLAT = REPO / "platforms" / "mps2-an386"
MSP430_PLAT = REPO / "platforms" / "msp430fr5969"


def warnings():
    """MB_WARN of mk/lib.mk (the project's warning set), plus -Wundef."""
    line = re.search(r"^MB_WARN\s*:=\s*(.*)$", (REPO / "mk" / "lib.mk").read_text(), re.M)
    return line[1].split("#")[0].split() + ["-Wundef"]


def all_files(chip=None):
    files = sorted(REPO.glob("src/*/*.c"))
    if chip:
        files += sorted((REPO / "arch" / chip).glob("*.[cS]"))
    return files


def listed(radix, chip="", config=""):
    """The project's own source list for this build (paths relative to the repo)."""
    out = subprocess.run(["make", "-s", "--no-print-directory", "-f", "cmake/lib-sources.make",
                          f"RADIX={radix}", f"CHIP={chip}", f"CONFIG={config}", "print"],
                         cwd=REPO, check=True, stdout=subprocess.PIPE, text=True).stdout
    return set(out.split())


def compile_all(cc, flags, files, out):
    """{source (relative path): object} for every file, compiled with cc and flags."""
    def one(src):
        rel = src.relative_to(REPO)
        obj = out / (str(rel.with_suffix("")).replace("/", "__") + ".o")
        p = subprocess.run([*cc, *flags, "-c", str(src), "-o", str(obj)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert p.returncode == 0 and not p.stdout.strip(), f"{rel}:\n{p.stdout}"
        return str(rel), obj
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(one, files))


def defines_symbols(obj):
    """True if the object defines a global symbol (a file that compiled to something)."""
    elf = ELFFile(io.BytesIO(obj.read_bytes()))
    symtab = elf.get_section_by_name(".symtab")
    return any(s["st_info"]["bind"] in ("STB_GLOBAL", "STB_WEAK") and s["st_shndx"] != "SHN_UNDEF"
               for s in (symtab.iter_symbols() if symtab else []))


def check_selection(objs, want):
    """The files whose objects define something are those of the project's list (a listed
    file may still be empty: e.g. poly1305_block.c in a radix-16 build)."""
    used = {src for src, obj in objs.items() if defines_symbols(obj)}
    assert used - want == set(), f"compiled to code but not in the project's list: {sorted(used - want)}"
    # Every file the list takes from arch/ must be in use: the backend is really on.
    assert {f for f in want if f.startswith("arch/")} <= used, sorted(want - used)


def suite_vectors(tmp_path, profile="tiny"):
    hdr = tmp_path / "gen" / "suite_vectors.h"
    hdr.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(REPO / "tests" / "target" / "gen_vectors.py"),
                    "--profile", profile, "-o", str(hdr)], check=True)
    return hdr.parent


SUITE_LINE = re.compile(r"^suite (\w+): (\d+) passed, (\d+) failed$", re.M)


def check_suite(status, out):
    results = {m[1]: (int(m[2]), int(m[3])) for m in SUITE_LINE.finditer(out)}
    total = sum(p for p, _ in results.values())
    assert results and all(p > 0 and f == 0 for p, f in results.values()), out
    assert f"summary: {total} passed, 0 failed\nALL PASSED\n" in out and status == 0, out
    return results


# ---- Cortex-M4 -------------------------------------------------------------------------
need_arm = pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None,
                              reason="arm-none-eabi-gcc missing (make apt)")


@need_arm
def test_cortex_m4_every_file(tmp_path):
    """arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb on every file of src/ and arch/cortex-m4/:
    the assembly backend, radix 32, and the tiny suite passing in the cycle model."""
    from motebox_tools.boards import m4 as target_m4
    cc = ["arm-none-eabi-gcc"]
    flags = M4_FLAGS + FREESTANDING + ["-std=c99", "-O2", "-fno-tree-loop-distribute-patterns",
                                       *warnings(), *INC]
    objs = compile_all(cc, flags, all_files("cortex-m4"), tmp_path / "obj")
    check_selection(objs, listed(32, "cortex-m4"))

    gen = suite_vectors(tmp_path)
    fw = [REPO / "tests" / "target" / "suite.c", M4_PLAT / "startup.c", M4_PLAT / "hal.c",
          M4_PLAT / "mem.c", REPO / "platforms" / "common" / "tprint.c"]
    elf = tmp_path / "suite-tiny.elf"
    # The suite firmware (not the library) is told that P-256 is there, as mk/m4.mk does.
    subprocess.run(cc + flags + ["-DMB_HAVE_P256=1", "-Wno-undef", f"-I{gen}",
                                 f"-I{REPO / 'platforms'}", *map(str, fw),
                                 *map(str, objs.values()), "-nostdlib", "-nostartfiles",
                                 "-T", str(M4_PLAT / "link.ld"), "-Wl,--gc-sections", "-lgcc",
                                 "-o", str(elf)], check=True)
    if not target_m4.have_model():
        pytest.fail("cycle model motebox_tools.sim.m4 missing")
    status, out, err = target_m4.run_model(elf, timeout=600)
    results = check_suite(status, out)
    assert "wycheproof_p256" in results and "nacl_box" in results


@need_arm
def test_cortex_m4_portable_opt_out(tmp_path):
    """-DMB_PORTABLE: the same every-file build gives the portable C library (no arch/
    object defines anything) and -DMB_RADIX=25 on the Cortex-M4 does too."""
    cc = ["arm-none-eabi-gcc"]
    base = M4_FLAGS + FREESTANDING + ["-std=c99", "-Os", *warnings(), *INC]
    for extra, radix in ((["-DMB_PORTABLE"], 32), (["-DMB_RADIX=25"], 25)):
        objs = compile_all(cc, base + extra, all_files("cortex-m4"), tmp_path / extra[0][2:])
        check_selection(objs, listed(radix))
        assert not any(defines_symbols(o) for s, o in objs.items() if s.startswith("arch/"))


# ---- host ------------------------------------------------------------------------------
def test_host_every_file(tmp_path):
    """cc on every file of src/ (no arch/ for the host): the default radix (64 with
    unsigned __int128), a shared library that agrees with libsodium and OpenSSL."""
    nb = pytest.importorskip("nacl.bindings")
    ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
    from cryptography.hazmat.primitives import serialization
    cc = [os.environ.get("HOST_CC", "cc")]
    objs = compile_all(cc, ["-std=c99", "-O2", "-fPIC", *warnings(), *INC],
                       all_files(), tmp_path / "obj")
    radix = int(subprocess.run(cc + [*INC, "-E", "-dM", "-include", "util/backend.h", "-x", "c",
                                     os.devnull], check=True, stdout=subprocess.PIPE, text=True
                               ).stdout.split("#define MB_RADIX ")[1].split()[0])
    check_selection(objs, listed(radix))
    so = tmp_path / "libmotebox.so"
    subprocess.run(cc + ["-shared", "-o", str(so), *map(str, objs.values())], check=True)
    lib = motebox.Library(so)

    rnd = __import__("random").Random(16)
    for _ in range(8):
        a_sk, b_sk = rnd.randbytes(32), rnd.randbytes(32)
        a_pk, b_pk = nb.crypto_scalarmult_base(a_sk), nb.crypto_scalarmult_base(b_sk)
        assert lib.x25519_base(a_sk) == a_pk
        assert lib.x25519(a_sk, b_pk) == nb.crypto_scalarmult(a_sk, b_pk)
        m, n = rnd.randbytes(rnd.randrange(200)), rnd.randbytes(24)
        assert nb.crypto_box_open_easy(lib.box(m, n, b_pk, a_sk), n, a_pk, b_sk) == m
        assert lib.box_open(nb.crypto_box_easy(m, n, a_pk, b_sk), n, b_pk, a_sk) == m
    for _ in range(3):
        a, b = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
        b_pub = b.public_key().public_bytes(serialization.Encoding.X962,
                                            serialization.PublicFormat.UncompressedPoint)
        a_sk = a.private_numbers().private_value.to_bytes(32, "big")
        assert lib.p256_ecdh(a_sk, b_pub) == a.exchange(ec.ECDH(), b.public_key())


# ---- MSP430X ---------------------------------------------------------------------------
need_msp430 = pytest.mark.skipif(shutil.which("clang") is None or shutil.which("ld.lld") is None,
                                 reason="clang / ld.lld missing (make apt)")


@need_msp430
@pytest.mark.parametrize("mpy", [32, 16])
def test_msp430x_every_file(mpy, tmp_path):
    """clang --target=msp430 on every file of src/ and arch/msp430x/ (with the board's
    board.h on the include path, and -DMB_MSP430_MPY=16 for the 16-bit multiplier): the
    assembly backend, radix 16, and the tiny suite (without P-256: it does not fit the
    FRAM beside X25519) passing on the simulator."""
    from motebox_tools.sim import msp430 as sim
    cc = ["clang", "--target=msp430"]
    flags = FREESTANDING + ["-std=c99", "-O2", *warnings(), *INC, f"-I{MSP430_PLAT}"]
    flags += [] if mpy == 32 else ["-DMB_MSP430_MPY=16"]
    objs = compile_all(cc, flags, all_files("msp430x"), tmp_path / "obj")
    check_selection(objs, listed(16, "msp430x", f"mpy{mpy}"))

    rt = BUILD / "msp430" / "rt" / f"mpy{mpy}" / "libfr5969.a"
    if not rt.exists() or not sim.have_sim():
        pytest.fail(f"{rt} or {sim.sim_path()} missing: run `make msp430` and the simulator build")
    gen = suite_vectors(tmp_path)
    fw_objs = []
    for src in (REPO / "tests" / "target" / "suite.c", REPO / "platforms" / "common" / "tprint.c"):
        obj = tmp_path / (src.stem + ".fw.o")
        subprocess.run(cc + flags + ["-DMB_HAVE_P256=0", f"-I{gen}", f"-I{REPO / 'platforms'}",
                                     "-c", str(src), "-o", str(obj)], check=True)
        fw_objs.append(obj)
    elf = tmp_path / "suite-tiny.elf"
    subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(MSP430_PLAT / "fr5969.ld"),
                    "--gc-sections", "-o", str(elf), *map(str, fw_objs),
                    *map(str, objs.values()), str(rt)], check=True)
    r = sim.run(elf, mpy=mpy, timeout=600)
    results = check_suite(r.status, r.stdout)
    assert "nacl_box" in results and "rfc7748" in results
