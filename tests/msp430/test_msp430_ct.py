# SPDX-License-Identifier: MIT
"""Constant time on the MSP430 target binary: the ct firmware (tests/target/ct.c, built
by `make msp430`) runs one operation on a secret patched into its `ct_input`; for three
different secrets the simulator's trace between ct_begin() and ct_end() (every executed
instruction address and every data address, in order) and the cycle count the firmware
measures must be identical. Outputs are checked against libsodium (PyNaCl) and OpenSSL
(`cryptography`), so the secrets really were used. Negative controls (a branch on a
secret bit, a secret table index) must make the same check fail. Run on the portable
builds and, when mk/msp430.mk names the board's chip, on its assembly builds (-O2, both
multipliers), which must then exist."""
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


P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def secrets(op=None, n=3, seed=430):
    """Random secrets; for P-256 also the scalars whose recoding (k + 2n or k + 3n) carries
    differently from random ones: 2, 3 and n - 1 (the masked k = n - 1 path; its
    output equals that of k = 1, so 1 is left out). A carry
    computed with a branch shows up as a different trace or cycle count."""
    rng = random.Random(seed)
    out = [bytes(rng.getrandbits(8) for _ in range(32)) for _ in range(n)]
    if op in (4, 8):
        out += [k.to_bytes(32, "big") for k in (2, 3, P256_N - 1)]
    if op == 3:   # X25519 comb: k/8 odd and even (m or L - m, src/curve/x25519_base.c)
        out += [b"\xff" * 32, b"\x10" + bytes(31)]
    if op == 5:   # also the fixed-base comb's exceptional scalar (4-comb table, r16)
        out += [k.to_bytes(32, "big") for k in (2, P256_N - 1, 0x20001FFFDFFFE << 192)]
    return out


def p256_pub():
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    k = ec.derive_private_key(0x1234567890ABCDEF, ec.SECP256R1())
    return k.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def expected(op, secret, pub):
    """What the operation must output, from outside references; None = not checked."""
    if op in (1, 2):
        return nacl.bindings.crypto_scalarmult(secret, pub[:32])
    if op == 3:
        return nacl.bindings.crypto_scalarmult_base(secret)
    if op in (4, 8):
        from cryptography.hazmat.primitives.asymmetric import ec
        sk = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pub)
        return sk.exchange(ec.ECDH(), peer)
    if op == 5:
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        sk = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
        return sk.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    if op == 6:
        msg = bytes(secret[i & 31] ^ ((i * 7) & 0xFF) for i in range(sum(CHUNKS)))
        return nacl.bindings.crypto_secretbox(msg, NONCE, secret)   # tag || ciphertext
    return None


def run_op(tmp_path, variant, op, secret, pub, rnd=RND):
    # P-256 runs in an image of its own (both curves do not fit in FRAM: mk/msp430.mk)
    src = t430.firmware("ct-p256" if op in P256_OPS else "ct", variant=variant)
    mpy = t430.VARIANTS[variant].mpy
    if not t430.have_sim():
        pytest.fail(f"{t430.sim_path()} missing: run `make` (SIM430's simulator)")
    if not src.exists():
        pytest.fail(f"{src} missing: run `make msp430` first")
    blob = bytes([op]) + secret + rnd + pub.ljust(65, b"\0")
    elf = t430.patch_elf(src, tmp_path / f"ct-{variant}-{op}-{secret[:4].hex()}-{rnd[:2].hex()}{rnd[-1]:02x}.elf", "ct_input",
                         blob)
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


P256_OPS = (4, 5, 8)
OPS = [(1, "x25519"), (2, "x25519_randomized"), (3, "x25519_base")] \
    + ([(4, "p256_ecdh"), (8, "p256_ecdh_randomized"), (5, "p256_base")] if HAVE_P256 else []) \
    + [(6, "box_stream")]
# The portable -O2 builds and the assembly -O2 builds (a few seconds per case).
ASM = [v for v in t430.variants(asm=True) if t430.VARIANTS[v].opt == "O2"]
VARIANTS = ["mpy32", "mpy16"] + ASM
CASES = [(op, name, v) for v in VARIANTS for op, name in OPS]


def case_id(op_name, variant):
    v = t430.VARIANTS[variant]
    return f"{op_name}-mpy{v.mpy}" + ("-asm" if v.asm else "")


@pytest.mark.parametrize("op,name,variant", CASES, ids=[case_id(c[1], c[2]) for c in CASES])
def test_constant_time(tmp_path, op, name, variant):
    mpy = t430.VARIANTS[variant].mpy
    pub = p256_pub() if op in (4, 8) else X25519_PUB
    seen, elfs = [], []
    for s in secrets(op):
        window, cycles, out, fields, elf = run_op(tmp_path, variant, op, s, pub)
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


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: case_id("x25519_randomized", v))
def test_x25519_randomized_rnd(tmp_path, variant):
    """rnd is secret too: lambda = rnd with bits 0 and 255 cleared, 2 if that is 0
    (src/curve/x25519_ladder.h). The same trace and cycles for a random rnd and for
    those that make lambda = 0 before the fix-up (a mask, not a branch)."""
    secret = secrets(2)[0]
    want = expected(2, secret, X25519_PUB)
    seen = set()
    for rnd in (RND, bytes(32), b"\x01" + bytes(30) + b"\x80", b"\xff" * 32):
        window, cycles, out, fields, _ = run_op(tmp_path, variant, 2, secret, X25519_PUB, rnd)
        assert fields["return"] == "0" and out == want, (rnd.hex(), fields)
        seen.add((window, cycles))
    assert len(seen) == 1, f"{variant}: trace or cycles depend on rnd: {seen}"


NEG = [(op, name, v) for v in ["mpy32"] + ASM
       for op, name in [(90, "neg_branch"), (91, "neg_index")]]


@pytest.mark.parametrize("op,name,variant", NEG, ids=[case_id(c[1], c[2]) for c in NEG])
def test_negative_control(tmp_path, op, name, variant):
    """The check can fail: code with a secret branch / a secret table index gives
    different traces for the same three secrets, in the portable image and in the
    assembly one. (Their cycle counts may still agree: on the MSP430 both arms of
    neg_branch's `if` happen to take equal time, which is exactly why the trace, not only
    the cycle count, is compared.)"""
    seen = [run_op(tmp_path, variant, op, s, X25519_PUB)[:2] for s in secrets()]
    assert len({w for w, _ in seen}) > 1, f"{name}: traces equal, the check is blind"
