# SPDX-License-Identifier: MIT
"""`make demo`: the whole system. Sensor nodes seal readings with the node protocol
(docs/PROTOCOL.md), a gateway (`motebox serve`) opens them, stores each reading once in
SQLite and answers with a receipt, which each node then checks; a replayed, a tampered,
a truncated and an unknown node's message are rejected, and the demo prints what was
stored and what was rejected and why.

The nodes: firmware (demo/proto_node.c) on the board chosen with `--node` (the emulated
Cortex-M4 or the simulated MSP430FR5969; motebox_tools.protonode), the other simulated
chip when it is built, and host nodes (the motebox library on this machine). `--node
host` runs host nodes only.

    python -m motebox_tools.demo [--node m4|msp430|host] [--variant V] [--readings N]
"""
import argparse
import math
import os
import shutil
import struct
import sys
import tempfile
import time

import nacl.bindings

from .boards import BOARDS, board

RECORD = struct.Struct("<IhH")   # seconds, temperature in 1/100 degC, humidity in 1/100 %
PER_READING = 8                  # records per 64-byte reading
SIM_READINGS = 4                 # readings per simulated node (simulation time)


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


def _chunks(data, size=RECORD.size * PER_READING):
    return [data[i:i + size] for i in range(0, len(data), size)]


def _check(what, cond):
    print(f"  [{'ok' if cond else 'FAIL'}] {what}")
    return bool(cond)


def _have(name, variant):
    """Is the simulated board's node firmware buildable here (its library built)?"""
    try:
        mod = board(name)
        v = variant or mod.demo_variant()
        if name == "m4":
            return mod.have_model() and mod._library(v).exists()
        return mod.have_sim() and all(p.exists() for p in mod._libraries(v))
    except Exception:
        return False


class Fleet:
    """The nodes of the demo and the gateway they talk to over CoAP on loopback."""

    def __init__(self, port, server_pk):
        import socket
        self.server_pk = server_pk
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.connect(("127.0.0.1", port))
        self.mid = 0

    def post(self, payload, timeout=2.0, tries=3):
        """POST payload to /r (CON); the receipt, or None if no answer came."""
        import socket
        from .gateway import coap
        self.mid = (self.mid + 1) & 0xFFFF
        req = coap.encode(coap.CON, coap.POST, self.mid, self.mid.to_bytes(2, "big"),
                          payload, path=("r",))
        self.sock.settimeout(timeout / tries)
        for _ in range(tries):                     # CoAP retransmits a CON the same way
            self.sock.send(req)
            try:
                while True:
                    m = coap.decode(self.sock.recv(4096))
                    if m is not None and m.mid == self.mid:
                        return m.payload
            except socket.timeout:
                continue
        return None


def run_node(name, where, variant, server_pk, node_sk, readings, fleet, register):
    """Seal on the node, send to the gateway, hand the receipts back to the node."""
    from . import protonode
    node_pk = nacl.bindings.crypto_scalarmult_base(node_sk)
    register(node_pk, name)
    t = time.monotonic()
    first = protonode.run(where, variant, server_pk, node_sk, None, readings, [])
    receipts = [fleet.post(m) for m in first["messages"]]
    # the node boots again from the same NVM image: the same datagrams, then the receipts
    second = protonode.run(where, variant, server_pk, node_sk, None, readings,
                           [r for r in receipts if r is not None])
    print(f"node {name}: {first['where']}")
    print(f"  {len(readings)} readings sealed under counters "
          f"{first['counters_used'][0]}..{first['counters_used'][-1]}, "
          f"{len(first['messages'][0])}-byte datagrams ({time.monotonic() - t:.1f} s)")
    cyc = first.get("cycles") or {}
    if cyc.get("seal_64"):
        print(f"  {cyc['seal_64']:,} cycles per 64-byte reading sealed")
    ok = _check("the gateway answered every datagram with a receipt", all(receipts))
    ok &= _check("the node accepted each receipt (stored: it may erase its copy)",
                 len(second["accepted"]) == len(readings)
                 and all(a["status"] == 0 for a in second["accepted"]))
    ok &= _check("the same boot sends the same datagrams (deterministic node)",
                 second["messages"] == first["messages"])
    return ok, node_pk, first["messages"]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox demo", description=__doc__.split("\n")[0])
    ap.add_argument("--node", choices=list(BOARDS), default="host",
                    help="the simulated board that runs a node (default: host nodes only)")
    ap.add_argument("--variant", help="the board's build variant (default: its demo build)")
    ap.add_argument("--readings", type=int, default=512,
                    help="8-byte records per host node (64 bytes per reading)")
    ap.add_argument("--db", help="SQLite file to keep (default: a temporary one)")
    args = ap.parse_args(argv)
    if args.variant is not None and args.variant not in board(args.node).VARIANTS:
        ap.error(f"--variant: {args.node} has {', '.join(board(args.node).VARIANTS)}")
    if args.readings < 1:
        ap.error("--readings must be at least 1")

    import motebox
    from .gateway import coap  # noqa: F401  (fail early if the package is incomplete)
    from .gateway.harness import GatewayThread
    from .gateway.store import open_store

    tmp = tempfile.mkdtemp(prefix="motebox-demo-")
    db = args.db or os.path.join(tmp, "readings.db")
    lib = motebox.lib()
    server_pk, server_sk = nacl.bindings.crypto_box_keypair()
    print("server: X25519 key pair (libsodium); gateway `motebox serve` on 127.0.0.1, "
          f"CoAP POST /r, SQLite {db if args.db else 'in a temporary file'}")
    ok = True
    registry = open_store(db)
    try:
        gwt = GatewayThread(db, server_sk, lib)
        with gwt as gw:
            fleet = Fleet(gw.port, server_pk)

            def register(pk, name):
                registry.add_node(pk, name)            # `motebox nodes add`
                gwt.reload()
            sent = {}
            sims = [args.node] if args.node != "host" else []
            if sims:                   # and the other simulated chip, if it is built
                sims += [b for b in ("m4", "msp430") if b not in sims and _have(b, None)]
            log = sensor_readings(max(args.readings, PER_READING * SIM_READINGS))
            for i, where in enumerate(sims):
                readings = _chunks(sensor_readings(PER_READING * SIM_READINGS,
                                                   start=1_795_000_000 + 7 * i))
                variant = args.variant if where == args.node else None
                good, pk, msgs = run_node(f"{where}-node", where, variant, server_pk,
                                          os.urandom(32), readings, fleet, register)
                ok &= good
                sent[pk[:8]] = (f"{where}-node", readings, msgs)
            for h in range(2):
                readings = _chunks(log[h * 8:] if h else log)
                good, pk, msgs = run_node(f"host-{h + 1}", "host", None, server_pk,
                                          os.urandom(32), readings, fleet, register)
                ok &= good
                sent[pk[:8]] = (f"host-{h + 1}", readings, msgs)
            ok &= attacks(fleet, sent, server_pk, gw)
            stats = gw.stats()
        ok &= report(registry, sent, stats)
    finally:
        registry.close()
        if not args.db:
            shutil.rmtree(tmp, ignore_errors=True)
    print("demo: OK" if ok else "demo: FAILED")
    return 0 if ok else 1


def attacks(fleet, sent, server_pk, gw):
    """What an attacker on the radio tries; each must be dropped, and counted."""
    from .gateway.wire import HEADER
    print("attacker on the radio:")
    name, _readings, msgs = next(iter(sent.values()))
    before = gw.stats()
    ok = True
    replay = fleet.post(msgs[0])
    ok &= _check(f"a replayed datagram of {name} is answered with its stored receipt and "
                 "stores nothing (duplicate)", replay is not None and
                 gw.stats()["stored"] == before["stored"])
    tampered = bytearray(msgs[1])
    tampered[HEADER + 20] ^= 0x01
    ok &= _check("a tampered copy (one bit of the ciphertext flipped) gets no answer (bad_tag)",
                 fleet.post(bytes(tampered), timeout=0.3, tries=1) is None)
    later = bytearray(msgs[1])
    later[16] ^= 0x80                          # the same bytes claimed under another counter
    ok &= _check("the same ciphertext under another counter gets no answer (bad_tag)",
                 fleet.post(bytes(later), timeout=0.3, tries=1) is None)
    stranger_sk = os.urandom(32)
    stranger_pk = nacl.bindings.crypto_scalarmult_base(stranger_sk)
    box = nacl.bindings.crypto_box(b"x" * 64, b"mbx1\x01" + bytes(18) + b"\x01", server_pk,
                                   stranger_sk)
    unknown = b"\x11" + stranger_pk[:8] + (1).to_bytes(8, "big") + box
    ok &= _check("a node that is not registered gets no answer (unknown_sender)",
                 fleet.post(unknown, timeout=0.3, tries=1) is None)
    ok &= _check("a truncated datagram gets no answer (malformed)",
                 fleet.post(msgs[2][:30], timeout=0.3, tries=1) is None)
    after = gw.stats()
    want = {"duplicate": 1, "bad_tag": 2, "unknown_sender": 1, "malformed": 1, "stored": 0}
    got = {k: after[k] - before[k] for k in want}
    ok &= _check(f"the gateway counted each: {got}", got == want)
    return ok


def report(store, sent, stats):
    print("database: what was stored")
    ok = True
    by_kid = {n.key_id: n for n in store.nodes()}
    total = 0
    for kid, (name, readings, msgs) in sent.items():
        node = by_kid[kid]
        rows = store.readings(node.id)
        total += len(rows)
        recs = [RECORD.unpack_from(r[2], i) for r in rows for i in range(0, len(r[2]), RECORD.size)]
        temps = [r[1] / 100 for r in recs]
        span = (recs[-1][0] - recs[0][0]) / 3600 if recs else 0
        print(f"  {name:12} key id {kid.hex()}  {len(rows)} readings, counters "
              f"{rows[0][1]}..{rows[-1][1]}, {len(recs)} records over {span:.1f} h, "
              f"temperature {min(temps):.2f}..{max(temps):.2f} degC")
        ok &= _check(f"{name}: each reading stored once, as the node sent it",
                     [r[2] for r in rows] == readings)
    print("gateway: " + ", ".join(f"{k} {stats[k]}" for k in
                                  ("received", "stored", "duplicate", "bad_tag", "unknown_sender",
                                   "malformed", "too_old")))
    ok &= _check("stored = readings sent, nothing else", stats["stored"] == total ==
                 sum(len(v[1]) for v in sent.values()))
    return ok


if __name__ == "__main__":
    sys.exit(main())
