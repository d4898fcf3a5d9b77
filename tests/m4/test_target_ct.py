# SPDX-License-Identifier: MIT
"""Constant time on the Cortex-M4 target binary (build/m4/O2/ct.elf, tests/target/ct.c).

The same ELF is patched (symbol `ct_input`: operation, secret, public inputs) with three
or more different secrets, then
  * traced on unicorn between ct_begin() and ct_end(): the sequence of executed basic
    blocks (address, length: the executed instruction addresses) and the sequence of data
    accesses (address, size, read/write) must hash identically for every secret;
  * run in the cycle model: the cycle count DWT_CYCCNT measures around the operation must
    be identical too.
Each run's result is checked against libsodium (PyNaCl) or OpenSSL (cryptography), so the
secrets provably reached the computation. Negative controls (a secret-dependent branch,
a secret-dependent table index, test-only code in ct.c) show that the check can fail."""
import array
import hashlib
import random
import re
import struct

import nacl.bindings as sodium
import nacl.secret
import pytest

from conftest import REPO
from motebox_tools.boards import m4 as target_m4

unicorn = pytest.importorskip("unicorn")
from unicorn import arm_const as A  # noqa: E402

M4 = target_m4.build_dir()
HAVE_P256 = bool(list((REPO / "src" / "proto").glob("p256*.c")))
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
NONCE = bytes(range(1, 25))
CHUNKS = [64, 37, 100, 0, 55]
OPS = {"x25519": 1, "x25519_randomized": 2, "x25519_base": 3, "p256_ecdh": 4, "p256_base": 5,
       "box_stream": 6, "box_beforenm": 7, "p256_ecdh_randomized": 8, "neg_branch": 90,
       "neg_index": 91}

rng = random.Random(20261123)
X_PUB = sodium.crypto_scalarmult_base(rng.randbytes(32))
RND = rng.randbytes(32)
X_SECRETS = [rng.randbytes(32), rng.randbytes(32), b"\xff" * 32]
P_SECRETS = [rng.randrange(1, P256_N).to_bytes(32, "big"),
             rng.randrange(1, P256_N).to_bytes(32, "big"), (P256_N - 1).to_bytes(32, "big")]
# n - 2: the one odd scalar whose last windowed addition on the Cortex-M4 is a doubling
# (arch/cortex-m4/p256_window.c's masked fix-up); n - 1 is even (negated there).
P_SECRETS.append((P256_N - 2).to_bytes(32, "big"))


def elf(variant="O2"):
    path = M4 / variant / "ct.elf"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make m4` first")
    return path


def p256_peer():
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    key = ec.derive_private_key(rng.randrange(1, P256_N) | 1, ec.SECP256R1())
    return key, key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def patched(tmp_path, op, secret, pub=b"", tag="", variant="O2", rnd=RND):
    data = bytes([OPS[op]]) + secret + rnd + pub.ljust(65, b"\0")
    return target_m4.patch_elf(elf(variant), tmp_path / f"ct-{variant}-{op}-{tag}.elf",
                               "ct_input", data)


class Tracer:
    """Runs an mps2-an386 ELF on unicorn, recording between ct_begin and ct_end."""

    def __init__(self, path):
        from elftools.elf.elffile import ELFFile
        uc = unicorn.Uc(unicorn.UC_ARCH_ARM, unicorn.UC_MODE_THUMB | unicorn.UC_MODE_MCLASS)
        uc.mem_map(0x00000000, 4 << 20)
        uc.mem_map(0x20000000, 4 << 20)
        uc.mem_map(0xE0000000, 1 << 20)  # DWT/DEMCR writes of hal_setup land here
        with open(path, "rb") as f:
            e = ELFFile(f)
            for seg in e.iter_segments():
                if seg["p_type"] == "PT_LOAD" and seg["p_filesz"]:
                    uc.mem_write(seg["p_paddr"], seg.data())
            syms = {s.name: s["st_value"] for s in e.get_section_by_name(".symtab").iter_symbols()}
        self.begin, self.end = syms["ct_begin"] & ~1, syms["ct_end"] & ~1
        self.uc, self.out, self.status = uc, bytearray(), None
        self.code, self.data, self.on = array.array("Q"), array.array("Q"), False
        uc.hook_add(unicorn.UC_HOOK_INTR, self._semihost)
        uc.hook_add(unicorn.UC_HOOK_BLOCK, self._block)
        uc.hook_add(unicorn.UC_HOOK_MEM_READ | unicorn.UC_HOOK_MEM_WRITE, self._mem)

    def _semihost(self, uc, intno, _):
        pc = uc.reg_read(A.UC_ARM_REG_PC)
        op, arg = uc.reg_read(A.UC_ARM_REG_R0), uc.reg_read(A.UC_ARM_REG_R1)
        if bytes(uc.mem_read(pc, 2)) != b"\xab\xbe":  # BKPT 0xAB
            raise RuntimeError(f"exception {intno} at {pc:#x}")
        if op == 0x04:  # SYS_WRITE0
            s = bytearray()
            while (c := uc.mem_read(arg + len(s), 1)) != b"\0":
                s += c
            self.out += s
        elif op == 0x20:  # SYS_EXIT_EXTENDED
            self.status = struct.unpack("<II", uc.mem_read(arg, 8))[1]
            uc.emu_stop()
            return
        else:
            raise RuntimeError(f"semihosting call {op:#x} not handled")
        uc.reg_write(A.UC_ARM_REG_PC, (pc + 2) | 1)

    def _block(self, uc, addr, size, _):
        if addr == self.begin:
            self.on = True
        elif addr == self.end:
            self.on = False
        if self.on:
            self.code.append(addr << 16 | size)

    def _mem(self, uc, access, addr, size, value, _):
        if self.on:
            self.data.append(addr << 8 | size << 1 | (access == unicorn.UC_MEM_WRITE))

    def run(self):
        sp, pc = struct.unpack("<II", self.uc.mem_read(0, 8))
        self.uc.reg_write(A.UC_ARM_REG_SP, sp)
        self.uc.emu_start(pc | 1, 0xFFFFFFFF)
        assert self.status == 0, self.out.decode(errors="replace")
        assert self.code and self.data, "ct_begin/ct_end never reached"
        return (self.out.decode(),
                hashlib.sha256(self.code.tobytes()).hexdigest(),
                hashlib.sha256(self.data.tobytes()).hexdigest(), len(self.code), len(self.data))


def parse(out):
    fields = dict(line.split(" ", 1) for line in out.strip().splitlines() if " " in line)
    return fields


def expected(op, secret, pub, peer):
    """What libsodium / OpenSSL say the output is: (return, out hex, ciphertext hex)."""
    if op in ("x25519", "x25519_randomized"):
        return "0", sodium.crypto_scalarmult(secret, pub).hex(), None
    if op == "x25519_base":
        return "0", sodium.crypto_scalarmult_base(secret).hex(), None
    if op == "box_beforenm":
        return "0", sodium.crypto_box_beforenm(pub, secret).hex(), None
    if op == "box_stream":
        msg = bytes(secret[i & 31] ^ (i * 7 & 0xFF) for i in range(256))
        c = nacl.secret.SecretBox(secret).encrypt(msg, NONCE).ciphertext
        return "0", c[:16].hex(), c[16:].hex()
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    me = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
    if op == "p256_base":
        return "0", me.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint).hex(), None
    return "0", me.exchange(ec.ECDH(), peer.public_key()).hex(), None


# The assembly backend (arch/cortex-m4/, variant O2-asm: field arithmetic of both curves,
# the X25519 ladder step, Salsa20, Poly1305) gets the same default checks.
ASM = (M4 / "O2-asm").is_dir() or (REPO / "arch" / "cortex-m4" / "files.mk").exists()
CASES = [("O2", "x25519"), ("O2", "x25519_randomized"), ("O2", "box_stream"), ("O2", "p256_ecdh"),
         pytest.param("O2", "x25519_base", marks=pytest.mark.slow),
         pytest.param("O2", "box_beforenm", marks=pytest.mark.slow),
         pytest.param("O2", "p256_base", marks=pytest.mark.slow)]
if ASM:
    CASES += [("O2-asm", "x25519"), ("O2-asm", "x25519_randomized"), ("O2-asm", "box_stream"),
              ("O2-asm", "p256_ecdh"), ("O2-asm", "p256_ecdh_randomized"), ("O2-asm", "p256_base"),
              ("O2-asm", "x25519_base")]


def setup_case(op):
    if op.startswith("p256"):
        if not HAVE_P256:
            pytest.skip("P-256 not in the library yet")
        peer, pub = p256_peer()
        # p256_base: also the fixed-base comb's exceptional scalar (src/curve/p256_base.c:
        # its last mixed addition is a doubling, selected by the masked fix-up).
        extra = [(0x2222 << 240).to_bytes(32, "big")] if op == "p256_base" else []
        return P_SECRETS + extra, pub, peer
    return X_SECRETS, (X_PUB if op in ("x25519", "x25519_randomized", "box_beforenm") else b""), None


@pytest.mark.parametrize("variant,op", CASES)
def test_trace_independent_of_secret(variant, op, tmp_path):
    secrets, pub, peer = setup_case(op)
    runs = []
    for i, s in enumerate(secrets):
        out, code_h, data_h, n_code, n_data = Tracer(patched(tmp_path, op, s, pub, i, variant)).run()
        f = parse(out)
        ret, want, want_ct = expected(op, s, pub, peer)
        assert f["out"] == want and f["op"] == f"{OPS[op]} return {ret}", (op, i, out)
        if want_ct:
            assert f["ciphertext"] == want_ct
        runs.append((code_h, data_h, n_code, n_data, f["out"]))
    assert len({r[4] for r in runs}) == len(secrets), "secrets gave equal outputs"
    assert len({r[0] for r in runs}) == 1, f"{op}: executed addresses depend on the secret: {runs}"
    assert len({r[1] for r in runs}) == 1, f"{op}: data addresses depend on the secret: {runs}"


# rnd is secret too: lambda = rnd with bits 0 and 255 cleared, 2 if that is 0
# (src/curve/x25519_ladder.h); the zero case must be a mask, not a branch.
RNDS = [RND, bytes(32), b"\x01" + bytes(30) + b"\x80", b"\xff" * 32]


@pytest.mark.parametrize("variant", ["O2"] + (["O2-asm"] if ASM else []))
def test_trace_independent_of_rnd(variant, tmp_path):
    """x25519_randomized: the same addresses for a random rnd and for those that make
    lambda = 0 before the fix-up to 2."""
    secret = X_SECRETS[0]
    want = sodium.crypto_scalarmult(secret, X_PUB).hex()
    runs = set()
    for i, rnd in enumerate(RNDS):
        out, code_h, data_h, _, _ = Tracer(patched(tmp_path, "x25519_randomized", secret, X_PUB,
                                                   f"rnd{i}", variant, rnd)).run()
        assert parse(out)["out"] == want, (i, out)
        runs.add((code_h, data_h))
    assert len(runs) == 1, f"{variant}: the trace depends on rnd"


@pytest.mark.skipif(not target_m4.have_model(), reason="cycle model motebox_tools.sim.m4 not present yet")
@pytest.mark.parametrize("variant,op", CASES)
def test_cycles_independent_of_secret(variant, op, tmp_path):
    from motebox_tools.sim import m4
    secrets, pub, peer = setup_case(op)
    cycles = []
    for i, s in enumerate(secrets):
        r = m4.run(patched(tmp_path, op, s, pub, i, variant))
        out = r.stdout.decode()
        assert r.exit_code == 0, out
        assert parse(out)["out"] == expected(op, s, pub, peer)[1]
        cycles.append(int(re.search(r"^cycles (\d+)$", out, re.M)[1]))
    assert cycles[0] > 0 and len(set(cycles)) == 1, f"{op}: cycles depend on the secret: {cycles}"


def test_negative_control_branch(tmp_path):
    """A secret-dependent branch (test-only code) changes the executed-address trace."""
    secrets = [bytes([1]) * 32, bytes([2]) * 32, rng.randbytes(32)]
    runs = [Tracer(patched(tmp_path, "neg_branch", s, tag=i)).run() for i, s in enumerate(secrets)]
    assert len({r[1] for r in runs}) == 3


def test_negative_control_index(tmp_path):
    """A secret table index leaves the executed addresses alone but changes the data
    addresses: the data trace is what catches it."""
    secrets = [bytes(32), bytes([0x80]) * 32, rng.randbytes(32)]
    runs = [Tracer(patched(tmp_path, "neg_index", s, tag=i)).run() for i, s in enumerate(secrets)]
    assert len({r[1] for r in runs}) == 1
    assert len({r[2] for r in runs}) == 3


@pytest.mark.skipif(not target_m4.have_model(), reason="cycle model motebox_tools.sim.m4 not present yet")
def test_negative_control_cycles(tmp_path):
    """The secret-dependent branch also shows in the model's cycle count."""
    from motebox_tools.sim import m4
    cycles = set()
    for i, s in enumerate([bytes([1]) * 32, bytes([2]) * 32]):
        out = m4.run(patched(tmp_path, "neg_branch", s, tag=i)).stdout.decode()
        cycles.add(int(re.search(r"^cycles (\d+)$", out, re.M)[1]))
    assert len(cycles) == 2
