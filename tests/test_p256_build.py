# SPDX-License-Identifier: MIT
"""The P-256 sources compile warning-free (-Wall -Wextra -Werror ...) with every compiler
motebox supports: host gcc and clang (all radixes), arm-none-eabi-gcc for Cortex-M4 (r32,
r16) and clang --target=msp430 (r16, 16-bit int and size_t)."""
import shutil
import subprocess

import pytest
from conftest import REPO

SOURCES = ["src/field/fep256.c", "src/curve/p256_coz.c", "src/curve/p256_point.c",
           "src/proto/p256_ecdh.c"]
WARN = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-Wshadow", "-Wstrict-prototypes",
        "-Wmissing-prototypes", "-Iinclude", "-Isrc"]
TARGETS = [
    ("gcc", ["gcc"], (16, 32, 64)),
    ("clang", ["clang"], (16, 32, 64)),
    ("cortex-m4", ["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb"], (16, 32)),
    ("msp430", ["clang", "--target=msp430"], (16,)),
]


@pytest.mark.parametrize("name,cc,radixes", TARGETS, ids=[t[0] for t in TARGETS])
def test_compiles_warning_free(tmp_path, name, cc, radixes):
    if shutil.which(cc[0]) is None:
        pytest.skip(f"{cc[0]} not installed")
    for radix in radixes:
        for src in SOURCES + [f"src/field/fep256_r{radix}.c"]:
            obj = tmp_path / "x.o"
            r = subprocess.run(cc + WARN + [f"-DMB_RADIX={radix}", "-c", src, "-o", str(obj)],
                               cwd=REPO, capture_output=True, text=True)
            assert r.returncode == 0 and not r.stderr.strip(), f"{name} r{radix} {src}:\n{r.stderr}"
