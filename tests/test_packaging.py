# SPDX-License-Identifier: MIT
"""motebox as an outside project sees it (issue #16): the CMake build and install, the
pkg-config file, find_package(motebox), `make install`, and consumers built against the
installed packages (examples/server on the host, examples/m4-node on the Cortex-M4 under
QEMU, soft- and hard-float).

Expected values come from RFC 7748 (the examples' vectors) and libsodium (PyNaCl makes
the box the server opens and the box key the M4 node prints). Everything is built in
pytest's tmp_path, never in the checkout."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from nacl import bindings as sodium

from conftest import REPO
from test_layout import api_functions

CMAKE = shutil.which("cmake")
M4_TOOLCHAIN = REPO / "cmake" / "arm-none-eabi-cortex-m4.cmake"
MSP430_TOOLCHAIN = REPO / "cmake" / "msp430-clang.cmake"
pytestmark = pytest.mark.skipif(CMAKE is None, reason="cmake not installed (apt: cmake)")


def run(cmd, **kw):
    """Run cmd; on failure show its output in the assertion."""
    p = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, **kw)
    out = p.stdout.decode(errors="replace")
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} failed ({p.returncode}):\n{out[-4000:]}"
    return out


def cmake_install(tmp, name, *options):
    """Configure, build and install the library with CMake; returns the prefix."""
    build, prefix = tmp / f"build-{name}", tmp / f"prefix-{name}"
    run([CMAKE, "-S", REPO, "-B", build, "-DMOTEBOX_WERROR=ON", *options])
    run([CMAKE, "--build", build, "-j2"])
    run([CMAKE, "--install", build, "--prefix", prefix])
    return prefix


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    return cmake_install(tmp_path_factory.mktemp("host"), "host")


def sodium_box():
    """A box made by libsodium for the server: (sender pk, receiver sk, nonce, box, m)."""
    a_pk, a_sk = sodium.crypto_box_keypair()
    b_pk, b_sk = sodium.crypto_box_keypair()
    n = os.urandom(24)
    m = b"temperature=21.5C node=7 " * 3
    c = sodium.crypto_box_easy(m, n, b_pk, a_sk)
    return a_pk, b_sk, n, c, m


def check_server(exe, env=None):
    """The server passes RFC 7748, opens a libsodium box, and refuses a forged one."""
    out = run([exe], env=env)
    assert "x25519 rfc7748: ok" in out
    pk, sk, n, c, m = sodium_box()
    out = run([exe, pk.hex(), sk.hex(), n.hex(), c.hex()], env=env)
    assert out.split()[-1] == m.hex()
    forged = bytearray(c)
    forged[20] ^= 1
    p = subprocess.run([str(exe), pk.hex(), sk.hex(), n.hex(), forged.hex()], env=env,
                       stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert p.returncode == 3 and m.hex().encode() not in p.stdout


# ---- one list of sources ---------------------------------------------------------------
def make_sources(radix, chip="", config=""):
    """The sources the project's make computes (cmake/lib-sources.make over mk/lib.mk)."""
    return run(["make", "-s", "--no-print-directory", "-f", "cmake/lib-sources.make",
                f"RADIX={radix}", f"CHIP={chip}", f"CONFIG={config}", "print"], cwd=REPO).split()


@pytest.mark.parametrize("arch,radix,config", [
    ("portable", 64, ""), ("portable", 32, ""), ("portable", 16, ""),
    ("cortex-m4", 32, ""), ("msp430x", 16, "mpy32"), ("msp430x", 16, "mpy16")])
def test_source_list_comes_from_make(arch, radix, config):
    cm = run([CMAKE, f"-DMOTEBOX_ARCH={arch}", f"-DMOTEBOX_RADIX={radix}",
              f"-DMOTEBOX_MSP430_MPY={config}", "-P", REPO / "cmake" / "print-sources.cmake"])
    mk = make_sources(radix, "" if arch == "portable" else arch, config)
    assert cm.split() == mk
    assert any(f.startswith("src/proto/") for f in mk)
    assert (arch == "portable") == (not any(f.startswith("arch/") for f in mk))
    # The chip's list is applied: what it replaces is gone, what replaces it is there.
    if arch == "cortex-m4":
        assert "src/sym/salsa20_core.c" not in mk and "arch/cortex-m4/salsa20.S" in mk


def archive_members(lib):
    return sorted(run(["ar", "t", lib]).split())


# ---- the host package ------------------------------------------------------------------
def test_install_layout(host):
    # One object per source of make's list (radix 64 on this host).
    srcs = make_sources(64)
    objs = archive_members(host / "lib" / "libmotebox.a")
    assert sorted(Path(f).name + ".o" for f in srcs) == objs
    for rel in ("include/motebox.h", "include/motebox_nacl.h", "lib/libmotebox.a",
                "lib/libmotebox.so", "lib/pkgconfig/motebox.pc",
                "lib/cmake/motebox/motebox-config.cmake",
                "lib/cmake/motebox/motebox-config-version.cmake"):
        assert (host / rel).exists(), rel


def test_shared_library_exports_only_the_api(host):
    out = run(["nm", "-D", "--defined-only", host / "lib" / "libmotebox.so"])
    exported = {line.split()[-1] for line in out.splitlines() if line.strip()}
    assert exported == api_functions()
    # ... while the library has internal mb_ functions that would otherwise be exported.
    out = run(["nm", "--defined-only", host / "lib" / "libmotebox.a"])
    internal = set(re.findall(r" T (mb_\w+)", out)) - api_functions()
    assert len(internal) > 10


def test_no_fixed_base_option(tmp_path):
    """MB_NO_FIXED_BASE=ON leaves the comb tables out (and the library still works)."""
    prefix = cmake_install(tmp_path, "nofb", "-DMB_NO_FIXED_BASE=ON", "-DMOTEBOX_SHARED=OFF")
    syms = run(["nm", "--defined-only", prefix / "lib" / "libmotebox.a"])
    assert "mb_p256_base_table" not in syms and " mb_x25519_base" in syms
    src = tmp_path / "app.c"
    src.write_text(CLASHING_APP)
    run(["cc", "-std=c99", f"-I{prefix / 'include'}", "-o", tmp_path / "app", src,
         prefix / "lib" / "libmotebox.a"])
    run([tmp_path / "app"])


def test_pkg_config_consumer(host, tmp_path):
    env = dict(os.environ, PKG_CONFIG_PATH=str(host / "lib" / "pkgconfig"))
    flags = run(["pkg-config", "--cflags", "--libs", "motebox"], env=env).split()
    # The relocatable .pc (prefix from ${pcfiledir}) points into this install.
    assert f"-I{host / 'include'}" in [f[:2] + os.path.normpath(f[2:]) for f in flags]
    assert "-lmotebox" in flags
    exe = tmp_path / "server"
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", exe,
         REPO / "examples" / "server" / "server.c", *flags], env=env)
    check_server(exe, env=dict(env, LD_LIBRARY_PATH=str(host / "lib")))


def test_find_package_consumer(host, tmp_path):
    build = tmp_path / "b"
    run([CMAKE, "-S", REPO / "examples" / "server", "-B", build, f"-DCMAKE_PREFIX_PATH={host}"])
    run([CMAKE, "--build", build])
    check_server(build / "motebox-server")      # CMake sets the rpath to the installed .so


CLASHING_APP = r"""
#include <string.h>
#include <motebox.h>
/* Names an application (or another crypto library: TweetNaCl, ref10, Monocypher) may
 * define itself; none of them may clash with libmotebox.a. */
int poly1305_init(void) { return 1; }
int salsa20_core(void) { return 2; }
int fe_mul(void) { return 3; }
int x25519(void) { return 4; }
int crypto_scalarmult(void) { return 5; }
int hsalsa20(void) { return 6; }
int p256_base(void) { return 7; }
int verify16(void) { return 8; }
int main(void)
{
    static const uint8_t nine[32] = {9};
    static const uint8_t want[32] = {0x42, 0x2c, 0x8e, 0x7a, 0x62, 0x27, 0xd7, 0xbc}; /* RFC 7748 */
    uint8_t out[32];
    if (mb_x25519(out, nine, nine) != 0) return 1;
    return memcmp(out, want, 8) != 0 || poly1305_init() + salsa20_core() + fe_mul() + x25519()
        + crypto_scalarmult() + hsalsa20() + p256_base() + verify16() != 36;
}
"""


def test_application_defining_poly1305_init_links_statically(host, tmp_path):
    src = tmp_path / "app.c"
    src.write_text(CLASHING_APP)
    exe = tmp_path / "app"
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-Wno-missing-prototypes", "-Werror",
         f"-I{host / 'include'}", "-o", exe, src, host / "lib" / "libmotebox.a"])
    run([exe])


def test_make_install_same_layout(host, tmp_path):
    dest, prefix = tmp_path / "dest", "/opt/motebox"
    run(["make", "-s", "--no-print-directory", "-j2", f"BUILD={tmp_path / 'build'}", "install",
         f"PREFIX={prefix}", f"DESTDIR={dest}"], cwd=REPO)
    root = dest / prefix.lstrip("/")

    def layout(top):
        return {str(p.relative_to(top)) for p in top.rglob("*")
                if "cmake" not in p.parts and (p.is_file() or p.is_symlink())}
    assert layout(root) == layout(host)
    out = run(["nm", "-D", "--defined-only", root / "lib" / "libmotebox.so"])
    assert {line.split()[-1] for line in out.splitlines() if line.strip()} == api_functions()
    # The .pc names the final prefix; PKG_CONFIG_SYSROOT_DIR finds the staged copy.
    env = dict(os.environ, PKG_CONFIG_PATH=str(root / "lib" / "pkgconfig"),
               PKG_CONFIG_SYSROOT_DIR=str(dest))
    assert f"-I{prefix}/include" in run(["pkg-config", "--cflags", "motebox"],
                                        env=dict(os.environ, PKG_CONFIG_PATH=str(root / "lib" / "pkgconfig")))
    flags = run(["pkg-config", "--cflags", "--libs", "motebox"], env=env).split()
    exe = tmp_path / "server"
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", exe,
         REPO / "examples" / "server" / "server.c", *flags])
    check_server(exe, env=dict(os.environ, LD_LIBRARY_PATH=str(root / "lib")))


# ---- the chips -------------------------------------------------------------------------
need_m4 = pytest.mark.skipif(not (shutil.which("arm-none-eabi-gcc") and shutil.which("qemu-system-arm")),
                             reason="arm-none-eabi-gcc or qemu-system-arm missing (make apt)")


@pytest.fixture(scope="module")
def m4_installs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("m4")
    return {abi: cmake_install(tmp, f"m4-{abi}", f"-DCMAKE_TOOLCHAIN_FILE={M4_TOOLCHAIN}",
                               "-DMOTEBOX_ARCH=cortex-m4", f"-DMOTEBOX_FLOAT_ABI={abi}")
            for abi in ("soft", "hard")}


def build_node(prefix, abi, build):
    """Configure and build examples/m4-node against prefix: (exit status, output)."""
    out = b""
    for cmd in ([CMAKE, "-S", REPO / "examples" / "m4-node", "-B", build,
                 f"-DCMAKE_TOOLCHAIN_FILE={M4_TOOLCHAIN}", f"-DMOTEBOX_FLOAT_ABI={abi}",
                 f"-DCMAKE_PREFIX_PATH={prefix}"],
                [CMAKE, "--build", build]):
        p = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out += p.stdout
        if p.returncode != 0:
            return p.returncode, out.decode(errors="replace")
    return 0, out.decode(errors="replace")


@need_m4
@pytest.mark.parametrize("abi", ["soft", "hard"])
def test_m4_consumer_runs_in_qemu(m4_installs, abi, tmp_path):
    from motebox_tools.boards.m4 import run_qemu
    prefix = m4_installs[abi]
    assert "motebox_arch=cortex-m4" in (prefix / "lib" / "pkgconfig" / "motebox.pc").read_text()
    assert not (prefix / "lib" / "libmotebox.so").exists()
    # The chip's build: one object per source of make's list for the Cortex-M4.
    want = sorted(Path(f).name + ".obj" for f in make_sources(32, "cortex-m4"))
    assert archive_members(prefix / "lib" / "libmotebox.a") == want
    build = tmp_path / "node"
    rc, log = build_node(prefix, abi, build)
    assert rc == 0, log[-3000:]
    status, out = run_qemu(build / "m4-node.elf", timeout=120)
    assert status == 0, out
    assert f"m4-node: {abi}-float build" in out
    assert "x25519 rfc7748 failed: 0" in out and "m4-node: ok" in out
    # The box key the node derived equals libsodium's crypto_box_beforenm.
    a_sk, b_sk = bytes([1, 2, 3]) + bytes(29), bytes([4, 5, 6]) + bytes(29)
    want = sodium.crypto_box_beforenm(sodium.crypto_scalarmult_base(b_sk), a_sk)
    assert f"box key: {want.hex()}" in out


@need_m4
def test_m4_float_abi_mismatch_is_refused(m4_installs, tmp_path):
    """Negative control: a hard-float node against the soft-float package does not link
    (the check the matching builds above pass)."""
    rc, log = build_node(m4_installs["soft"], "hard", tmp_path / "node")
    assert rc != 0 and "uses VFP register arguments" in log


@pytest.mark.skipif(not shutil.which("clang") or not shutil.which("llvm-ar"),
                    reason="clang / llvm-ar missing (make apt)")
def test_msp430_package_builds(tmp_path):
    prefix = cmake_install(tmp_path, "msp430", f"-DCMAKE_TOOLCHAIN_FILE={MSP430_TOOLCHAIN}")
    lib = prefix / "lib" / "libmotebox.a"
    out = run(["llvm-objdump", "-f", lib]) if shutil.which("llvm-objdump") else ""
    assert "msp430" in out.lower()
    assert "motebox_arch=msp430x" in (prefix / "lib" / "pkgconfig" / "motebox.pc").read_text()
    syms = run(["llvm-nm", "--defined-only", lib]) if shutil.which("llvm-nm") else ""
    assert set(re.findall(r" T (mb_\w+)", syms)) >= api_functions()
