# SPDX-License-Identifier: MIT
"""What one simulated trace runs, and the interface every recorder implements.

The firmware harness is tests/target/ct.c (its `ct_input` struct, patched per trace):
one call of the operation `op` between ct_begin() and ct_end()."""
from dataclasses import dataclass

# ct.c's operation numbers (public selector), by function name
OPS = {
    "x25519": 1,
    "x25519_randomized": 2,
    "p256_ecdh": 4,
    "p256_ecdh_randomized": 8,
}


@dataclass(frozen=True)
class LeakInput:
    """One trace's inputs. secret: 32 bytes (the scalar); pub: 32 bytes (X25519 u) or
    65 (P-256 SEC1 uncompressed); rnd: 32 bytes of randomization (ignored by the plain
    functions; a fresh value per trace for the randomized ones)."""
    function: str
    secret: bytes
    pub: bytes
    rnd: bytes = bytes(32)

    @property
    def op(self):
        return OPS[self.function]


class Recorder:
    """A recorder turns inputs into traces on one target and build.

    target: "msp430x-mpy32" | "msp430x-mpy16" | "cortex-m4" | "hw"; impl: the build
    ("portable", "asm", ...). record(inputs, samples, noise_snr=None, seed=0) returns a
    float32 numpy array of shape (len(inputs), samples): the leakage samples of each run
    inside the recorder's window (documented per recorder in docs/SIDE_CHANNELS.md),
    truncated or zero-padded to `samples`. Each trace's output is checked (the run's
    result must be correct) so a broken harness cannot pass for a quiet one."""
    target = None
    impl = None
    window = None    # text describing the window, for the results rows

    def record(self, inputs, samples, noise_snr=None, seed=0):
        raise NotImplementedError
