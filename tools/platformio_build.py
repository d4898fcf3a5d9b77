# SPDX-License-Identifier: MIT
"""PlatformIO extra script of library.json: picks the library's sources for the board.

Runs inside PlatformIO's SCons library builder (`Import("env")`). The source list is
the project's own (`make -f cmake/lib-sources.make`, over mk/lib.mk and
arch/<chip>/files.mk: GNU make must be installed), so a "compile every file" build
never sees two definitions of one function:
  - board CPU cortex-m4 (build.cpu): the Cortex-M4 assembly backend, radix 32;
  - any other board: portable C, radix 32 (64 on the `native` platform of a 64-bit host).
platformio.ini may override: custom_motebox_arch = portable | cortex-m4,
custom_motebox_radix = 16 | 32 | 64, custom_motebox_no_fixed_base = yes.
The library has no floating point: soft- and hard-float boards take the same files."""
import os
import struct
import subprocess

# SCons builtin; PlatformIO exports the library builder's env and the builder itself
# (its .path: this library's folder).
Import("env", "pio_lib_builder")  # noqa: F821


def choose(board_cpu, platform, arch_opt, radix_opt):
    """(arch, radix) for a board."""
    arch = arch_opt or ("cortex-m4" if board_cpu == "cortex-m4" else "portable")
    if radix_opt:
        radix = int(radix_opt)
    elif arch == "cortex-m4":
        radix = 32
    else:
        radix = 64 if platform == "native" and struct.calcsize("P") == 8 else 32
    return arch, radix


def sources(root, arch, radix):
    """The library's sources (paths relative to root) from the project's make rules."""
    cmd = ["make", "-s", "--no-print-directory", "-f", "cmake/lib-sources.make",
           f"RADIX={radix}", f"CHIP={'' if arch == 'portable' else arch}", "print"]
    return subprocess.run(cmd, cwd=root, check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout.split()


def configure(env, root):
    board = env.BoardConfig()
    arch, radix = choose(board.get("build.cpu", ""), env.subst("$PIOPLATFORM"),
                         env.GetProjectOption("custom_motebox_arch", ""),
                         env.GetProjectOption("custom_motebox_radix", ""))
    srcs = sources(root, arch, radix)
    # The library builder compiles what SRC_FILTER selects (srcDir "." in library.json).
    env.Replace(SRC_FILTER=["-<*>"] + [f"+<{s}>" for s in srcs])
    env.Append(CPPPATH=[os.path.join(root, "src")], CPPDEFINES=[("MB_RADIX", radix)])
    if env.GetProjectOption("custom_motebox_no_fixed_base", "no") in ("yes", "true", "1"):
        env.Append(CPPDEFINES=["MB_NO_FIXED_BASE"])
    return arch, radix, srcs


configure(env, pio_lib_builder.path)  # noqa: F821
