# SPDX-License-Identifier: MIT
"""The Zephyr module (zephyr/) and the PlatformIO library (library.json), checked offline:
neither Zephyr nor PlatformIO is installed here, and neither can fetch what it needs
without network. Both compile every file of their folders and leave the backend to the
files (src/util/backend.h). So:

- Zephyr: zephyr/module.yml against the structure Zephyr's module schema gives
  (scripts/zephyr_module.py: `name` a string, `build` a map with `cmake`, the folder of
  a CMakeLists.txt, and `kconfig`, a file); zephyr/Kconfig loaded by kconfiglib (the
  Kconfig implementation Zephyr uses) under a stand-in top-level Kconfig, its choices
  evaluated for a Cortex-M4 and other CPUs; zephyr/CMakeLists.txt run by CMake with
  stand-ins for Zephyr's zephyr_library_* functions, for the Cortex-M4 (GNU Arm), and
  the library it builds linked into examples/m4-node and run under QEMU.
- PlatformIO: library.json against the fields of PlatformIO's library manifest
  (name, version, ..., build.includeDir/srcDir/srcFilter/flags); its srcFilter applied
  to the tree as PlatformIO's library builder applies it (every file of src/ and
  arch/); the selected files compiled as PlatformIO would for a cortex-m4 board (each
  file alone, the manifest's include paths, no -D), soft- and hard-float, and linked
  into examples/m4-node under QEMU.
In both, the objects that hold code are exactly the project's own list for that build
(cmake/lib-sources.make over mk/lib.mk and arch/<chip>/files.mk)."""
import json
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "python"))
import motebox  # noqa: E402

ARM = shutil.which("arm-none-eabi-gcc")
QEMU = shutil.which("qemu-system-arm")
need_m4 = pytest.mark.skipif(not (ARM and QEMU), reason="arm-none-eabi-gcc / qemu missing (make apt)")
M4_FLAGS = ["-mcpu=cortex-m4", "-mthumb"]
BOARD = REPO / "platforms" / "mps2-an386"


def make_sources(radix, chip=""):
    return subprocess.run(["make", "-s", "--no-print-directory", "-f", "cmake/lib-sources.make",
                           f"RADIX={radix}", f"CHIP={chip}", "print"], cwd=REPO, check=True,
                          stdout=subprocess.PIPE, text=True).stdout.split()


def run_node(elf, float_abi="soft"):
    from motebox_tools.boards.m4 import run_qemu
    status, out = run_qemu(elf, timeout=120)
    assert status == 0 and "m4-node: ok" in out and f"{float_abi}-float build" in out, out


# ---- Zephyr ----------------------------------------------------------------------------
def test_zephyr_module_yml():
    yaml = pytest.importorskip("yaml")
    meta = yaml.safe_load((REPO / "zephyr" / "module.yml").read_text())
    assert set(meta) <= {"name", "build"} and isinstance(meta["name"], str)
    build = meta["build"]
    assert set(build) <= {"cmake", "kconfig", "cmake-ext", "kconfig-ext", "depends"}
    assert isinstance(build["cmake"], str) and isinstance(build["kconfig"], str)
    # As Zephyr checks them: the cmake folder holds a CMakeLists.txt, kconfig is a file.
    assert (REPO / build["cmake"] / "CMakeLists.txt").is_file()
    assert (REPO / build["kconfig"]).is_file()


def kconfig(tmp_path, **symbols):
    """Load zephyr/Kconfig under a stand-in top level with the given CPU symbols set;
    returns {name: value} of the MOTEBOX symbols."""
    kconfiglib = pytest.importorskip("kconfiglib")
    top = tmp_path / "Kconfig"
    top.write_text('mainmenu "stand-in"\nconfig CPU_CORTEX_M4\n\tbool "M4"\n'
                   'config 64BIT\n\tbool "64-bit"\n'
                   f'source "{REPO / "zephyr" / "Kconfig"}"\n')
    kc = kconfiglib.Kconfig(str(top), warn_to_stderr=False)
    assert not kc.warnings, kc.warnings
    for name, value in dict(MOTEBOX="y", **symbols).items():
        assert kc.syms[name].set_value(value), name
    return {n: s.str_value for n, s in kc.syms.items() if n.startswith("MOTEBOX")}


def test_zephyr_kconfig_picks_the_backend(tmp_path):
    m4 = kconfig(tmp_path, CPU_CORTEX_M4="y")
    assert m4["MOTEBOX_BACKEND_CORTEX_M4"] == "y" and m4["MOTEBOX_RADIX"] == "32"
    other = kconfig(tmp_path)
    assert other["MOTEBOX_BACKEND_CORTEX_M4"] == "n" and other["MOTEBOX_BACKEND_PORTABLE"] == "y"
    assert kconfig(tmp_path, **{"64BIT": "y"})["MOTEBOX_RADIX"] == "64"
    assert kconfig(tmp_path, MOTEBOX_NO_FIXED_BASE="y")["MOTEBOX_NO_FIXED_BASE"] == "y"


# Stand-ins for the Zephyr build functions the module uses (Zephyr's cmake/extensions.cmake
# has the real ones), and an application as Zephyr would link it.
ZEPHYR_HARNESS = """
cmake_minimum_required(VERSION 3.16)
project(zephyr_standin C ASM)
add_library(zephyr_interface INTERFACE)
function(zephyr_include_directories)
  target_include_directories(zephyr_interface INTERFACE ${ARGN})
endfunction()
macro(zephyr_library_named name)
  set(ZEPHYR_CURRENT_LIBRARY ${name})
  add_library(${name} STATIC)
  target_link_libraries(${name} PUBLIC zephyr_interface)
endmacro()
function(zephyr_library_sources)
  target_sources(${ZEPHYR_CURRENT_LIBRARY} PRIVATE ${ARGN})
endfunction()
function(zephyr_library_include_directories)
  target_include_directories(${ZEPHYR_CURRENT_LIBRARY} PRIVATE ${ARGN})
endfunction()
function(zephyr_library_compile_definitions)
  target_compile_definitions(${ZEPHYR_CURRENT_LIBRARY} PRIVATE ${ARGN})
endfunction()
set(ZEPHYR_CURRENT_MODULE_DIR "@REPO@")
include("${CMAKE_BINARY_DIR}/config.cmake")
add_subdirectory("@REPO@/zephyr" motebox)
add_executable(app.elf "@REPO@/examples/m4-node/node.c" "@BOARD@/startup.c" "@BOARD@/hal.c"
  "@BOARD@/mem.c" "@REPO@/platforms/common/tprint.c")
target_include_directories(app.elf PRIVATE "@REPO@/platforms")
target_compile_options(app.elf PRIVATE -O2 -ffreestanding -fno-tree-loop-distribute-patterns)
target_link_options(app.elf PRIVATE -nostdlib -nostartfiles -T "@BOARD@/link.ld" -Wl,--gc-sections)
target_link_libraries(app.elf PRIVATE motebox zephyr_interface gcc)
"""


@need_m4
def test_zephyr_module_builds_and_runs(tmp_path):
    cfg = kconfig(tmp_path, CPU_CORTEX_M4="y")
    src, build = tmp_path / "app", tmp_path / "build"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(
        ZEPHYR_HARNESS.replace("@REPO@", str(REPO)).replace("@BOARD@", str(BOARD)))
    build.mkdir()
    (build / "config.cmake").write_text("".join(
        f'set(CONFIG_{k} "{v}")\n' for k, v in cfg.items() if v != "n"))
    for cmd in (["cmake", "-S", src, "-B", build,
                 f"-DCMAKE_TOOLCHAIN_FILE={REPO / 'cmake' / 'arm-none-eabi-cortex-m4.cmake'}"],
                ["cmake", "--build", build]):
        p = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert p.returncode == 0, p.stdout.decode(errors="replace")[-3000:]
    # Every file is compiled; those with code are the Cortex-M4 build's list.
    from test_layout import ar_members, defined_globals
    lib = (build / "motebox" / "libmotebox.a").read_bytes()
    with_code = {name for name, obj in ar_members(lib) if defined_globals(obj)}
    assert with_code == {Path(f).name + ".obj" for f in make_sources(32, "cortex-m4")}
    run_node(build / "app.elf")


# ---- PlatformIO ------------------------------------------------------------------------
# The fields of PlatformIO's library.json manifest (docs: "library.json" specification).
PIO_FIELDS = {"name", "version", "description", "keywords", "repository", "authors", "license",
              "homepage", "headers", "dependencies", "frameworks", "platforms", "export",
              "examples", "build"}
PIO_BUILD_FIELDS = {"flags", "unflags", "includeDir", "srcDir", "srcFilter", "extraScript",
                    "libArchive", "libLDFMode", "libCompatMode"}
# The files PlatformIO's library builder compiles (its source suffixes).
PIO_SUFFIXES = {".c", ".cc", ".cpp", ".S", ".spp", ".SPP", ".sx", ".s", ".asm", ".ASM"}


def test_library_json_manifest():
    lib = json.loads((REPO / "library.json").read_text())
    assert set(lib) <= PIO_FIELDS and set(lib["build"]) <= PIO_BUILD_FIELDS
    assert re.fullmatch(r"[A-Za-z0-9_.-]+", lib["name"])
    assert lib["version"] == motebox.__version__
    inc = REPO / lib["build"]["includeDir"]
    assert all((inc / h).is_file() for h in lib["headers"])
    assert (REPO / lib["build"]["srcDir"]).is_dir()
    for path in lib["export"]["include"]:
        assert (REPO / path).exists(), path
    # No build script: the files pick the backend (src/util/backend.h), not a list.
    assert "extraScript" not in lib["build"]


def pio_selection():
    """(files, include dirs) PlatformIO's library builder takes from library.json: the
    srcFilter's +<glob> / -<glob> applied in order under srcDir (a folder stands for
    everything below it), source suffixes only; -I flags relative to the library root."""
    build = json.loads((REPO / "library.json").read_text())["build"]
    src_dir = REPO / build.get("srcDir", "src")
    filters = build.get("srcFilter", ["+<*>"])
    filters = filters if isinstance(filters, list) else re.findall(r"[+-]<[^>]*>", filters)
    chosen = set()
    for f in filters:
        sign, pattern = f[0], f[2:-1]
        hits = set()
        for p in src_dir.glob(pattern):
            hits |= {q for q in p.rglob("*") if q.is_file()} if p.is_dir() else {p}
        chosen = chosen | hits if sign == "+" else chosen - hits
    files = sorted(str(p.relative_to(REPO)) for p in chosen if p.suffix in PIO_SUFFIXES)
    flags = build.get("flags", [])
    flags = " ".join(flags if isinstance(flags, list) else [flags])
    return files, [REPO / d for d in re.findall(r"-I\s*(\S+)", flags)]


def test_platformio_compiles_every_file():
    files, incs = pio_selection()
    every = sorted(str(p.relative_to(REPO)) for p in
                   list(REPO.glob("src/*/*.c")) + list(REPO.glob("arch/*/*.[cS]")))
    assert files == every
    assert [REPO / "src"] == incs


@need_m4
@pytest.mark.parametrize("float_abi", ["soft", "hard"])
def test_platformio_selection_builds_and_runs(float_abi, tmp_path):
    """Every selected file compiled for a cortex-m4 board as PlatformIO would (each file
    alone, the manifest's include paths, no -D): the files with code are the Cortex-M4
    build's list, and the node links and runs under QEMU."""
    from elftools.elf.elffile import ELFFile
    files, incs = pio_selection()
    flags = M4_FLAGS + ([] if float_abi == "soft" else ["-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"])
    cc = [ARM, "-std=c99", "-O2", "-ffreestanding", "-ffunction-sections", "-fdata-sections",
          "-fno-tree-loop-distribute-patterns", "-Wall", "-Wextra", "-Werror", *flags,
          f"-I{REPO / 'include'}", *[f"-I{p}" for p in incs]]
    objs, with_code = [], []
    for i, f in enumerate(files):
        obj = tmp_path / f"{i}.o"
        p = subprocess.run(cc + ["-c", str(REPO / f), "-o", str(obj)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert p.returncode == 0, f"{f}:\n" + p.stdout.decode(errors="replace")[-3000:]
        objs.append(obj)
        with open(obj, "rb") as fh:
            symtab = ELFFile(fh).get_section_by_name(".symtab")
            if any(s["st_info"]["bind"] == "STB_GLOBAL" and s["st_shndx"] != "SHN_UNDEF"
                   for s in symtab.iter_symbols()):
                with_code.append(f)
    assert set(with_code) <= set(make_sources(32, "cortex-m4"))
    assert {f for f in make_sources(32, "cortex-m4") if f.startswith("arch/")} <= set(with_code)
    p = subprocess.run(cc + [f"-I{REPO / 'platforms'}", *map(str, objs),
                             str(REPO / "examples" / "m4-node" / "node.c"), str(BOARD / "startup.c"),
                             str(BOARD / "hal.c"), str(BOARD / "mem.c"),
                             str(REPO / "platforms" / "common" / "tprint.c"),
                             "-nostdlib", "-nostartfiles", "-T", str(BOARD / "link.ld"),
                             "-Wl,--gc-sections", "-lgcc", "-o", str(tmp_path / "app.elf")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode(errors="replace")[-3000:]
    run_node(tmp_path / "app.elf", float_abi)
