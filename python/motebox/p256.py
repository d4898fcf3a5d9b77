# SPDX-License-Identifier: MIT
"""NIST P-256 ECDH methods of `motebox.Library` (mb_p256_* of motebox.h).

`P256` is a base class of `Library`: p256_base, p256_ecdh, p256_ecdh_randomized,
p256_compress and p256_decompress. Scalars are 32-byte big-endian integers in [1, n-1];
public keys are SEC1 (65 bytes 04||X||Y or 33 bytes 02/03||X); shared secrets are the
32-byte big-endian x-coordinate. Wrong lengths raise ValueError naming the argument; a
scalar out of range or an invalid point raises motebox.BadKey (a ValueError too). A
library built without P-256 raises MoteboxError on the first call.
"""
import ctypes

from .errors import BadKey, MoteboxError, check_bytes

P256_SECRETKEYBYTES = 32
P256_PUBLICKEYBYTES = 65
P256_COMPRESSEDBYTES = 33
P256_SHAREDBYTES = 32
P256_RANDOMBYTES = 32
# The group order n (FIPS 186-4 D.1.2.3), to tell a bad scalar from a bad point.
_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def _pk(pk):
    pk = check_bytes("pk", pk)
    if len(pk) not in (P256_PUBLICKEYBYTES, P256_COMPRESSEDBYTES):
        raise ValueError(f"pk must be 65 (uncompressed) or 33 (compressed) bytes long, got {len(pk)}")
    return pk


def _ecdh_error(sk):
    k = int.from_bytes(sk, "big")
    if k == 0 or k >= _N:
        return BadKey("sk is not a valid P-256 scalar (it is 0 or >= the group order n)")
    return BadKey("pk is not a valid P-256 public key (bad encoding, coordinate >= p, "
                  "or not on the curve)")


class P256:
    """The P-256 methods; the class using it provides `c` (the CDLL), `path` and `has`."""

    def _p256_fn(self, name):
        if not self.has(name):
            raise MoteboxError(f"{self.path} was built without P-256 ({name} missing)")
        return getattr(self.c, name)

    def p256_base(self, sk):
        """The SEC1 uncompressed public key (65 bytes) of the scalar sk."""
        sk = check_bytes("sk", sk, P256_SECRETKEYBYTES)
        out = ctypes.create_string_buffer(P256_PUBLICKEYBYTES)
        if self._p256_fn("mb_p256_base")(out, sk) != 0:
            raise BadKey("sk is not a valid P-256 scalar (it is 0 or >= the group order n)")
        return out.raw

    def p256_ecdh(self, sk, pk):
        """Shared secret x(sk * P) (32 bytes) with the public key pk (65 or 33 bytes)."""
        sk, pk = check_bytes("sk", sk, P256_SECRETKEYBYTES), _pk(pk)
        out = ctypes.create_string_buffer(P256_SHAREDBYTES)
        if self._p256_fn("mb_p256_ecdh")(out, sk, pk, len(pk)) != 0:
            raise _ecdh_error(sk)
        return out.raw

    def p256_ecdh_randomized(self, sk, pk, rnd):
        """As p256_ecdh with the ladder's Z randomized by rnd (32 fresh random bytes)."""
        sk, pk = check_bytes("sk", sk, P256_SECRETKEYBYTES), _pk(pk)
        rnd = check_bytes("rnd", rnd, P256_RANDOMBYTES)
        out = ctypes.create_string_buffer(P256_SHAREDBYTES)
        if self._p256_fn("mb_p256_ecdh_randomized")(out, sk, pk, len(pk), rnd) != 0:
            raise _ecdh_error(sk)
        return out.raw

    def p256_compress(self, pk):
        """33-byte SEC1 compressed form of the 65-byte uncompressed public key pk."""
        pk = check_bytes("pk", pk, P256_PUBLICKEYBYTES)
        out = ctypes.create_string_buffer(P256_COMPRESSEDBYTES)
        if self._p256_fn("mb_p256_compress")(out, pk) != 0:
            raise BadKey("pk is not a valid uncompressed P-256 public key")
        return out.raw

    def p256_decompress(self, pk):
        """65-byte SEC1 uncompressed form of the 33-byte compressed public key pk."""
        pk = check_bytes("pk", pk, P256_COMPRESSEDBYTES)
        out = ctypes.create_string_buffer(P256_PUBLICKEYBYTES)
        if self._p256_fn("mb_p256_decompress")(out, pk) != 0:
            raise BadKey("pk is not a valid compressed P-256 public key")
        return out.raw
