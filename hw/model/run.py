# SPDX-License-Identifier: MIT
"""Drive the reference model through the command flows of [HSSW15] section 4."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from asip import ASIP  # noqa: E402


def load(path, W):
    with open(path) as f:
        return ASIP(json.load(f), W)


def dh1(m, sk, base=(9).to_bytes(32, "little")):
    m.write(0, sk)
    m.write(1, base)
    cyc = m.run("DH1")
    return m.read(1), cyc


def dh2(m, sk, pk):
    m.write(0, sk)
    m.write(1, pk)
    return m.run("DH2")


def box_stream(m, nonce, msg):
    """Returns (tag || ciphertext, cycles dict).  msg: 32 + 64 k bytes."""
    cyc = {}
    m.write(0, nonce + bytes(8))
    cyc["INIT"] = m.run("INIT")
    m.write(0, bytes(32))
    m.write(1, msg[:32])
    cyc["FIRST"] = m.run("FIRST")
    ct = m.read(1)
    for off in range(32, len(msg), 64):
        m.write(0, msg[off:off + 32])
        m.write(1, msg[off + 32:off + 64])
        cyc["UPDATE"] = m.run("UPDATE")
        ct += m.read(0) + m.read(1)
    cyc["FINALIZE"] = m.run("FINALIZE")
    r0 = m.read(0)
    return r0[16:32] + ct, cyc


def decrypt(m, nonce, tag, ct32):
    m.write(0, nonce + bytes(8))
    m.run("INIT")
    m.write(0, bytes(16) + tag)
    m.write(1, ct32)
    cyc = m.run("DECRYPT")
    return m.read(0) == bytes(32), m.read(1), cyc
