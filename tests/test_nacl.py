# SPDX-License-Identifier: MIT
"""include/motebox_nacl.h: a NaCl-style C program (tests/nacl/nacl_box_example.c)
compiled against the header and each backend's static library, run on the NaCl
distribution's box example (tests/box.c, box2.c, core1.c, core2.c, stream.c,
onetimeauth.c). Every expected value is also recomputed with PyNaCl / libsodium here,
so a typo in a constant cannot pass. The header must also compile as C++ and for the
two MCU targets."""
import shutil
import subprocess
from pathlib import Path

import nacl.bindings as nb
import pytest

import sodium_ref
from test_box import ALICE_PK, ALICE_SK, BOB_PK, BOB_SK, BOX, MSG, NONCE
from test_sym import NACL_FIRSTKEY, NACL_SECONDKEY, NACL_SHARED

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "tests" / "nacl" / "nacl_box_example.c"
WARN = ["-Wall", "-Wextra", "-Werror", "-Wshadow"]
# NaCl onetimeauth.c: the tag of the box example's ciphertext under rs = first 32
# keystream bytes; it is the box's tag.
NACL_ONETIMEAUTH = bytes.fromhex("f3ffc7703f9400e52a7dfb4b3d3305d9")


@pytest.fixture(scope="module")
def outputs(lib, tmp_path_factory):
    exe = tmp_path_factory.mktemp(f"nacl_r{lib.radix}") / "nacl_box_example"
    static = lib.path.parent / "libmotebox.a"
    subprocess.run(["cc", "-std=c99", "-O1", *WARN, "-I", str(REPO / "include"), str(SRC),
                    str(static), "-o", str(exe)], check=True)
    args = [x.hex() for x in (ALICE_SK, BOB_SK, ALICE_PK, BOB_PK, NONCE, MSG)]
    run = subprocess.run([str(exe), *args], check=True, capture_output=True, text=True)
    res = {}
    for line in run.stdout.splitlines():
        name, *rest = line.split(" ")
        if name == "sizes":
            res[name] = [int(x) for x in rest]
        else:
            res[name] = (int(rest[0]), bytes.fromhex(rest[1]) if len(rest) > 1 else b"")
    return res


def test_constants_against_pynacl():
    assert nb.crypto_box(MSG, NONCE, BOB_PK, ALICE_SK) == BOX   # PyNaCl's crypto_box: no padding
    assert nb.crypto_scalarmult(ALICE_SK, BOB_PK) == NACL_SHARED
    assert nb.crypto_box_beforenm(BOB_PK, ALICE_SK) == NACL_FIRSTKEY
    assert sodium_ref.hsalsa20(NONCE[:16], NACL_FIRSTKEY) == NACL_SECONDKEY
    assert BOX[:16] == NACL_ONETIMEAUTH
    assert sodium_ref.poly1305(BOX[16:], sodium_ref.xsalsa20(32, NONCE, NACL_FIRSTKEY)) == NACL_ONETIMEAUTH


def test_box_and_open(outputs):
    padded_m = bytes(32) + MSG
    padded_c = bytes(16) + BOX
    assert outputs["box"] == (0, padded_c)
    assert outputs["box_open"] == (0, padded_m)
    assert outputs["beforenm"] == (0, NACL_FIRSTKEY)
    assert outputs["afternm"] == (0, padded_c)
    assert outputs["open_afternm"] == (0, padded_m)
    assert outputs["secretbox"] == (0, padded_c)
    assert outputs["secretbox_open"] == (0, padded_m)
    assert outputs["secretbox_inplace"] == (0, padded_c)
    assert outputs["secretbox_open_inplace"] == (0, padded_m)


def test_failures_zero_output(outputs):
    assert outputs["box_open_forged"] == (-1, bytes(163))
    assert outputs["secretbox_open_wrongkey"] == (-1, bytes(163))
    assert outputs["secretbox_short"][0] == -1
    assert outputs["secretbox_open_short"][0] == -1
    assert outputs["scalarmult_zero"] == (-1, bytes(32))
    assert outputs["core_badconst"] == (-1, bytes(32))


def test_scalarmult_keypair_core(outputs):
    assert outputs["scalarmult"] == (0, NACL_SHARED)
    assert outputs["scalarmult_base"] == (0, BOB_PK)
    assert outputs["keypair_pk"] == (0, ALICE_PK)
    assert outputs["keypair_sk"] == (0, ALICE_SK)
    assert outputs["core1"] == (0, NACL_FIRSTKEY)
    assert outputs["core2"] == (0, NACL_SECONDKEY)


def test_stream_onetimeauth(outputs):
    assert outputs["stream"] == (0, sodium_ref.xsalsa20(200, NONCE, NACL_FIRSTKEY))
    assert outputs["stream_xor"] == (0, sodium_ref.xsalsa20_xor(MSG, NONCE, NACL_FIRSTKEY))
    assert outputs["onetimeauth"] == (0, NACL_ONETIMEAUTH)
    assert outputs["onetimeauth_verify"][0] == 0
    assert outputs["onetimeauth_verify_bad"][0] == -1
    assert outputs["verify16_same"][0] == 0
    assert outputs["verify32_diff"][0] == -1
    assert outputs["sizes"] == [32, 32, 32, 24, 32, 16, 32, 16]


def _compile_only(cmd, tmp_path, src):
    f = tmp_path / "use_nacl.c"
    f.write_text(src)
    subprocess.run([*cmd, *WARN, "-I", str(REPO / "include"), "-c", str(f), "-o",
                    str(tmp_path / "use_nacl.o")], check=True)


USE_ALL = """
#include "motebox_nacl.h"
int use_all(unsigned char *b, unsigned long long n);
int use_all(unsigned char *b, unsigned long long n)
{
    int r = 0;
    r |= crypto_box(b, b, n, b, b, b); r |= crypto_box_open(b, b, n, b, b, b);
    r |= crypto_box_beforenm(b, b, b); r |= crypto_box_afternm(b, b, n, b, b);
    r |= crypto_box_open_afternm(b, b, n, b, b); r |= crypto_box_keypair(b, b);
    r |= crypto_secretbox(b, b, n, b, b); r |= crypto_secretbox_open(b, b, n, b, b);
    r |= crypto_scalarmult(b, b, b); r |= crypto_scalarmult_base(b, b);
    r |= crypto_stream_xsalsa20(b, n, b, b); r |= crypto_stream_xsalsa20_xor(b, b, n, b, b);
    r |= crypto_onetimeauth_poly1305(b, b, n, b);
    r |= crypto_onetimeauth_poly1305_verify(b, b, n, b);
    r |= crypto_core_hsalsa20(b, b, b, b);
    return r;
}
"""


@pytest.mark.parametrize("target", ["c89-gnu", "c++", "cortex-m4", "msp430"])
def test_header_compiles(tmp_path, target):
    cmds = {
        "c89-gnu": ["cc", "-std=gnu89", "-Wno-long-long"],
        "c++": ["c++", "-x", "c++", "-std=c++11"],
        "cortex-m4": ["arm-none-eabi-gcc", "-std=c99", "-mcpu=cortex-m4", "-mthumb", "-O2",
                      "-ffreestanding"],
        "msp430": ["clang", "--target=msp430", "-std=c99", "-O2", "-ffreestanding"],
    }
    cmd = cmds[target]
    if shutil.which(cmd[0]) is None:
        pytest.skip(f"{cmd[0]} not installed")
    _compile_only(cmd, tmp_path, USE_ALL)
