# SPDX-License-Identifier: MIT
"""`make demo`: a sensor node seals its readings for a server, which opens them with
libsodium (through PyNaCl).

The node runs on a board of the boards table (`--node`, motebox_tools.boards.BOARDS:
the host library, or firmware on the emulated Cortex-M4 or MSP430FR5969), in one of its
variants (`--variant`). Each board's run_node takes the server's public key, the node's
32 secret bytes (standing in for the node's TRNG) and the readings, and returns what the
node sent: its public key, the nonce, the ciphertext and the tag (plus its cycle counts
when it ran in a simulator).

    python -m motebox_tools.demo [--node m4|msp430|host] [--variant V] [--readings N]
"""
import argparse
import math
import os
import struct
import sys

import nacl.bindings
import nacl.exceptions

from .boards import BOARDS, board

RECORD = struct.Struct("<IhH")   # seconds, temperature in 1/100 degC, humidity in 1/100 %
CHUNK = 64


def sensor_readings(count=512, start=1_795_000_000):
    """Synthetic readings of a day-long temperature/humidity log, one every ~3 minutes."""
    out = bytearray()
    for i in range(count):
        t = start + 169 * i
        phase = 2 * math.pi * i / count
        temp = 2150 + 320 * math.sin(phase) + (i * 7919 % 41) - 20
        hum = 4800 - 900 * math.sin(phase) + (i * 104729 % 61) - 30
        out += RECORD.pack(t, int(temp), int(hum))
    return bytes(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox demo", description=__doc__.split("\n")[0])
    ap.add_argument("--node", choices=list(BOARDS), default="host",
                    help="where the sensor node runs (default: host)")
    ap.add_argument("--variant", help="the board's build variant (default: its demo build)")
    ap.add_argument("--readings", type=int, default=512, help="number of 8-byte readings")
    args = ap.parse_args(argv)

    server_pk, server_sk = nacl.bindings.crypto_box_keypair()
    node_sk = os.urandom(32)
    readings = sensor_readings(args.readings)
    print("server: X25519 key pair from libsodium (PyNaCl); it only ever uses libsodium")
    print(f"        public key {server_pk.hex()}")
    print(f"node:   {len(readings)} bytes of readings ({args.readings} records), sealing in "
          f"{CHUNK}-byte chunks through mb_box_stream_* ...")
    node = board(args.node)
    if args.variant is not None and args.variant not in node.VARIANTS:
        ap.error(f"--variant: {args.node} has {', '.join(node.VARIANTS)}")
    sent = node.run_node(server_pk, node_sk, readings, variant=args.variant)
    print(f"node:   ran on {sent['where']}")
    print(f"        public key {sent['node_pk'].hex()}")
    print(f"        nonce {sent['nonce'].hex()}, tag {sent['tag'].hex()}")
    for name, value in (sent.get("cycles") or {}).items():
        print(f"        {name}: {value:,} cycles")

    # The server: libsodium only. The node's key must be the one its secret implies.
    ok = True
    expect_pk = nacl.bindings.crypto_scalarmult_base(node_sk)
    ok &= _check("node public key equals libsodium's crypto_scalarmult_base", sent["node_pk"] == expect_pk)
    box = sent["tag"] + sent["ciphertext"]
    try:
        opened = nacl.bindings.crypto_box_open(box, sent["nonce"], sent["node_pk"], server_sk)
    except nacl.exceptions.CryptoError:
        opened = None
    ok &= _check("crypto_box_open (libsodium) authenticates tag || ciphertext", opened is not None)
    if opened is None:
        return 1
    ok &= _check("plaintext equals the node's readings", opened == readings)
    recs = [RECORD.unpack_from(opened, i) for i in range(0, len(opened), RECORD.size)]
    temps = [r[1] / 100 for r in recs]
    hums = [r[2] / 100 for r in recs]
    print(f"server: {len(recs)} readings over {(recs[-1][0] - recs[0][0]) / 3600:.1f} h: "
          f"temperature {min(temps):.2f}..{max(temps):.2f} degC (mean {sum(temps) / len(temps):.2f}), "
          f"humidity {min(hums):.2f}..{max(hums):.2f} %")
    forged = bytearray(box)
    forged[len(forged) // 2] ^= 1
    try:
        nacl.bindings.crypto_box_open(bytes(forged), sent["nonce"], sent["node_pk"], server_sk)
        rejected = False
    except nacl.exceptions.CryptoError:
        rejected = True
    ok &= _check("a copy with one flipped bit is rejected", rejected)
    print("demo: OK" if ok else "demo: FAILED")
    return 0 if ok else 1


def _check(what, cond):
    print(f"server: [{'ok' if cond else 'FAIL'}] {what}")
    return bool(cond)


if __name__ == "__main__":
    sys.exit(main())
