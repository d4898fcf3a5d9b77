# SPDX-License-Identifier: MIT
"""The target suite (tests/target/suite.c, cases from RFC 7748, Wycheproof, libsodium and
OpenSSL made by tests/target/gen_vectors.py) on the Cortex-M4 board: under QEMU, and in the
cycle model with output identical to QEMU's. Built by `make m4` (build/m4/<variant>/)."""
import re

import pytest

from conftest import REPO
from motebox_tools.boards import m4 as target_m4

M4 = target_m4.build_dir()
HAVE_P256 = bool(list((REPO / "src" / "proto").glob("p256*.c")))
SUITES = ["rfc7748", "rfc7748_iterated", "wycheproof_x25519", "nacl_x25519", "x25519_alias",
          "nacl_x25519_base", "rfc7539_poly1305", "nacl_secretbox", "nacl_secretbox_open",
          "nacl_box", "nacl_box_open", "nacl_stream"]
if HAVE_P256:
    SUITES += ["wycheproof_p256", "ossl_p256_ecdh", "ossl_p256_base", "ossl_p256_encode"]
LINE = re.compile(r"^suite (\w+): (\d+) passed, (\d+) failed$", re.M)


def variants():
    out = ["O2"]
    if (M4 / "O2-asm").is_dir() or (REPO / "arch" / "cortex-m4" / "files.mk").exists():
        out.append("O2-asm")
    return out


def elf(variant, profile):
    path = M4 / variant / f"suite-{profile}.elf"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make m4` first")
    return path


def check_report(status, out):
    results = {m[1]: (int(m[2]), int(m[3])) for m in LINE.finditer(out)}
    assert list(results) == SUITES, out
    for name, (passed, failed) in results.items():
        assert passed > 0 and failed == 0, f"suite {name}: {passed} passed, {failed} failed\n{out}"
    total = sum(p for p, _ in results.values())
    assert f"summary: {total} passed, 0 failed\nALL PASSED\n" in out
    assert status == 0


@pytest.mark.skipif(not target_m4.have_qemu(), reason="qemu-system-arm not installed")
@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("profile", ["full", "small", "tiny"])
def test_suite_qemu(variant, profile):
    status, out = target_m4.run_qemu(elf(variant, profile), timeout=600)
    check_report(status, out)


@pytest.mark.skipif(not target_m4.have_qemu(), reason="qemu-system-arm not installed")
def test_suite_reports_failures(tmp_path):
    """The harness can fail: one corrupted expected byte gives one failed case, a FAIL line
    naming it, and exit status 1."""
    import vectors
    src = elf("O2", "small")
    wrong = bytes([vectors.rfc7748()[0][2][5] ^ 0xFF])  # case 0: sk[32] pk[32] out[32] ...
    bad = target_m4.patch_elf(src, tmp_path / "bad.elf", "mbt_rfc7748", wrong, offset=64 + 5)
    status, out = target_m4.run_qemu(bad, timeout=300)
    assert "suite rfc7748: 2 passed, 1 failed" in out
    assert "FAIL rfc7748 case 0: mb_x25519 output" in out
    assert out.rstrip().endswith("FAILED") and status == 1


@pytest.mark.skipif(not target_m4.have_model(), reason="cycle model motebox_tools.sim.m4 not present yet")
@pytest.mark.skipif(not target_m4.have_qemu(), reason="qemu-system-arm not installed")
@pytest.mark.parametrize("variant", variants())
@pytest.mark.parametrize("profile", ["tiny", pytest.param("small", marks=pytest.mark.slow),
                                     pytest.param("full", marks=pytest.mark.slow)])
def test_suite_model_matches_qemu(variant, profile):
    """The same ELF in the cycle model: identical console output and exit status."""
    path = elf(variant, profile)
    q_status, q_out = target_m4.run_qemu(path, timeout=300)
    m_status, m_out, m_err = target_m4.run_model(path, timeout=7200)
    assert m_out == q_out, m_err
    assert m_status == q_status == 0
    check_report(m_status, m_out)
