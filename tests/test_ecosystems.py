# SPDX-License-Identifier: MIT
"""The Zephyr module (zephyr/) and the PlatformIO library (library.json,
tools/platformio_build.py), checked offline: neither Zephyr nor PlatformIO is installed
here, and neither can fetch what it needs without network. So:

- Zephyr: zephyr/module.yml against the structure Zephyr's module schema gives
  (scripts/zephyr_module.py: `name` a string, `build` a map with `cmake`, the folder of
  a CMakeLists.txt, and `kconfig`, a file); zephyr/Kconfig loaded by kconfiglib (the
  Kconfig implementation Zephyr uses) under a stand-in top-level Kconfig, its choices
  evaluated for a Cortex-M4 and other CPUs; zephyr/CMakeLists.txt run by CMake with
  stand-ins for Zephyr's zephyr_library_* functions, for the Cortex-M4 (GNU Arm), and
  the library it builds linked into examples/m4-node and run under QEMU.
- PlatformIO: library.json against the fields of PlatformIO's library manifest
  (name, version, ..., build.includeDir/srcDir/extraScript), and the extra script run
  with a stand-in of PlatformIO's SCons library environment for a cortex-m4 board and
  for others; the files it selects compiled as PlatformIO would (every selected file,
  the script's defines and include paths) and linked into examples/m4-node under QEMU."""
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
    members = subprocess.run(["arm-none-eabi-ar", "t", str(build / "motebox" / "libmotebox.a")],
                             stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    assert sorted(members) == sorted(Path(f).name + ".obj" for f in make_sources(32, "cortex-m4"))
    run_node(build / "app.elf")


# ---- PlatformIO ------------------------------------------------------------------------
# The fields of PlatformIO's library.json manifest (docs: "library.json" specification).
PIO_FIELDS = {"name", "version", "description", "keywords", "repository", "authors", "license",
              "homepage", "headers", "dependencies", "frameworks", "platforms", "export",
              "examples", "build"}
PIO_BUILD_FIELDS = {"flags", "unflags", "includeDir", "srcDir", "srcFilter", "extraScript",
                    "libArchive", "libLDFMode", "libCompatMode"}


def test_library_json_manifest():
    lib = json.loads((REPO / "library.json").read_text())
    assert set(lib) <= PIO_FIELDS and set(lib["build"]) <= PIO_BUILD_FIELDS
    assert re.fullmatch(r"[A-Za-z0-9_.-]+", lib["name"])
    assert lib["version"] == motebox.__version__
    inc = REPO / lib["build"]["includeDir"]
    assert all((inc / h).is_file() for h in lib["headers"])
    assert (REPO / lib["build"]["extraScript"]).is_file()
    assert (REPO / lib["build"]["srcDir"]).is_dir()
    for path in lib["export"]["include"]:
        assert (REPO / path).exists(), path


class PioEnv:
    """Stand-in for the SCons environment PlatformIO hands a library's extra script."""

    def __init__(self, cpu, platform="ststm32", options=None):
        self.vars = {"SRC_FILTER": None, "CPPPATH": [], "CPPDEFINES": []}
        self.board = {"build.cpu": cpu}
        self.platform, self.options = platform, options or {}

    def BoardConfig(self):  # noqa: N802 - PlatformIO's names
        return types.SimpleNamespace(get=lambda k, d=None: self.board.get(k, d))

    def GetProjectOption(self, name, default=None):  # noqa: N802
        return self.options.get(name, default)

    def subst(self, text):
        return self.platform if text == "$PIOPLATFORM" else text

    def Replace(self, **kw):  # noqa: N802
        self.vars.update(kw)

    def Append(self, **kw):  # noqa: N802
        for k, v in kw.items():
            self.vars.setdefault(k, []).extend(v)


def run_extra_script(env):
    builder = types.SimpleNamespace(path=str(REPO))

    def scons_import(*names):
        frame = sys._getframe(1).f_globals
        for n in names:
            frame[n] = {"env": env, "pio_lib_builder": builder}[n]
    script = REPO / "tools" / "platformio_build.py"
    cwd = os.getcwd()
    os.chdir(script.parent)          # SConscriptChdir: the script's own folder
    try:
        exec(compile(script.read_text(), str(script), "exec"), {"Import": scons_import})
    finally:
        os.chdir(cwd)
    selected = [f[2:-1] for f in env.vars["SRC_FILTER"] if f.startswith("+<")]
    assert env.vars["SRC_FILTER"][0] == "-<*>"
    return selected, dict(d if isinstance(d, tuple) else (d, None) for d in env.vars["CPPDEFINES"])


def test_platformio_script_selects_the_backend():
    m4, defs = run_extra_script(PioEnv("cortex-m4"))
    assert m4 == make_sources(32, "cortex-m4") and defs["MB_RADIX"] == 32
    m0, defs = run_extra_script(PioEnv("cortex-m0plus"))
    assert m0 == make_sources(32) and not any(f.startswith("arch/") for f in m0)
    native, defs = run_extra_script(PioEnv("", platform="native"))
    assert native == make_sources(64) and defs["MB_RADIX"] == 64
    _, defs = run_extra_script(PioEnv("cortex-m4", options={"custom_motebox_no_fixed_base": "yes"}))
    assert "MB_NO_FIXED_BASE" in defs


@need_m4
@pytest.mark.parametrize("float_abi", ["soft", "hard"])
def test_platformio_selection_builds_and_runs(float_abi, tmp_path):
    env = PioEnv("cortex-m4")
    selected, defs = run_extra_script(env)
    flags = M4_FLAGS + ([] if float_abi == "soft" else ["-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"])
    cmd = ([ARM, "-std=c99", "-O2", "-ffreestanding", "-ffunction-sections", "-fdata-sections",
            "-fno-tree-loop-distribute-patterns", *flags, f"-I{REPO / 'include'}",
            f"-I{REPO / 'platforms'}"]
           + [f"-I{p}" for p in env.vars["CPPPATH"]]
           + [f"-D{k}" if v is None else f"-D{k}={v}" for k, v in defs.items()]
           + [str(REPO / f) for f in selected]
           + [str(REPO / "examples" / "m4-node" / "node.c"), str(BOARD / "startup.c"),
              str(BOARD / "hal.c"), str(BOARD / "mem.c"), str(REPO / "platforms" / "common" / "tprint.c"),
              "-nostdlib", "-nostartfiles", "-T", str(BOARD / "link.ld"), "-Wl,--gc-sections",
              "-lgcc", "-o", str(tmp_path / "app.elf")])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode(errors="replace")[-3000:]
    run_node(tmp_path / "app.elf", float_abi)
