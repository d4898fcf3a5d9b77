# SPDX-License-Identifier: MIT
"""Constant time on the MSP430 target binary: the ct firmware (tests/target/ct.c, built
by `make msp430`) runs one operation on a secret patched into its `ct_input`; for three
different secrets the simulator's trace between ct_begin() and ct_end() (every executed
instruction address and every data address, in order) and the cycle count the firmware
measures must be identical. Outputs are checked against libsodium (PyNaCl) and OpenSSL
(`cryptography`), so the secrets really were used. Negative controls (a branch on a
secret bit, a secret table index) must make the same check fail."""
import random

import nacl.bindings
import pytest

from conftest import REPO
from motebox_tools.boards import msp430 as t430

HAVE_P256 = bool(list((REPO / "src" / "proto").glob("p256*.c")))
NONCE = bytes(range(1, 25))
CHUNKS = [64, 37, 100, 0, 55]
RND = bytes((7 * i + 3) & 0xFF for i in range(32))
# RFC 7748 section 5.2, second test vector's u-coordinate: a valid public key.
X25519_PUB = bytes.fromhex("e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493")


def secrets(n=3, seed=430):
    rng = random.Random(seed)
    return [bytes(rng.getrandbits(8) for _ in range(32)) for _ in range(n)]


def p256_pub():
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    k = ec.derive_private_key(0x1234567890ABCDEF, ec.SECP256R1())
    return k.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def expected(op, secret, pub):
    """What the operation must output, from outside references; None = not checked."""
    if op in (1, 2):
        return nacl.bindings.crypto_scalarmult(secret, pub[:32])
    if op == 4:
        from cryptography.hazmat.primitives.asymmetric import ec
        sk = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pub)
        return sk.exchange(ec.ECDH(), peer)
    if op == 6:
        msg = bytes(secret[i & 31] ^ ((i * 7) & 0xFF) for i in range(sum(CHUNKS)))
        return nacl.bindings.crypto_secretbox(msg, NONCE, secret)   # tag || ciphertext
    return None


def run_op(tmp_path, mpy, op, secret, pub):
    src = t430.firmware("ct", mpy)
    if not t430.have_sim():
        pytest.fail(f"{t430.sim_path()} missing: run `make` (SIM430's simulator)")
    if not src.exists():
        pytest.fail(f"{src} missing: run `make msp430` first")
    blob = bytes([op]) + secret + RND + pub.ljust(65, b"\0")
    elf = t430.patch_elf(src, tmp_path / f"ct-{op}-{secret[:4].hex()}.elf", "ct_input", blob)
    begin, _ = t430.symbol(elf, "ct_begin")
    end, _ = t430.symbol(elf, "ct_end")
    r = t430.run(elf, mpy=mpy, window=(begin, end), timeout=1800)
    assert r.status == 0, r
    assert r.window is not None, f"ct_begin/ct_end not found in the trace\n{r.stderr}"
    fields = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    fields["return"] = fields["op"].split()[-1]     # "op N return R"
    out = bytes.fromhex(fields["out"])
    if op == 6:
        out = out + bytes.fromhex(fields["ciphertext"])
    return r.window, int(fields["cycles"]), out, fields, elf


OPS = [(1, "x25519"), (2, "x25519_randomized")] + ([(4, "p256_ecdh")] if HAVE_P256 else []) \
    + [(6, "box_stream")]
CASES = [(op, name, mpy) for mpy in (32, 16) for op, name in OPS]


@pytest.mark.parametrize("op,name,mpy", CASES, ids=[f"{c[1]}-mpy{c[2]}" for c in CASES])
def test_constant_time(tmp_path, op, name, mpy):
    pub = p256_pub() if op == 4 else X25519_PUB
    seen, elfs = [], []
    for s in secrets():
        window, cycles, out, fields, elf = run_op(tmp_path, mpy, op, s, pub)
        assert fields["return"] == "0", fields
        want = expected(op, s, pub)
        if want is not None:
            assert out == want, f"{name}: output differs from the reference for secret {s.hex()}"
        seen.append((window, cycles, out))
        elfs.append(elf)
    assert len({o for _, _, o in seen}) == len(seen), "the secrets gave equal outputs"
    windows = [w for w, _, _ in seen]
    cycles = {c for _, c, _ in seen}
    if len(set(windows)) != 1:
        k = next(i for i in range(1, len(windows)) if windows[i] != windows[0])
        begin, _ = t430.symbol(elfs[0], "ct_begin")
        where = t430.first_divergence(elfs[0], elfs[k], mpy, tmp_path, begin)
        pytest.fail(f"{name}: trace differs between secrets {windows}; first difference "
                    f"(instruction, trace line a, line b, function): {where}")
    assert len(cycles) == 1, f"{name}: cycle count differs between secrets: {cycles}"


@pytest.mark.parametrize("op,name", [(90, "neg_branch"), (91, "neg_index")])
def test_negative_control(tmp_path, op, name):
    """The check can fail: code with a secret branch / a secret table index gives
    different traces for the same three secrets. (Their cycle counts may still agree:
    on the MSP430 both arms of neg_branch's `if` happen to take equal time, which is
    exactly why the trace, not only the cycle count, is compared.)"""
    seen = [run_op(tmp_path, 32, op, s, X25519_PUB)[:2] for s in secrets()]
    assert len({w for w, _ in seen}) > 1, f"{name}: traces equal, the check is blind"
