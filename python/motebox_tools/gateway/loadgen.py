# SPDX-License-Identifier: MIT
"""Load generator: host nodes (the motebox library on this machine) that follow the
node rules of docs/PROTOCOL.md — one pending message per node, retransmitted with the
identical bytes until its receipt opens — and stream readings to a gateway on loopback
at a fixed total rate, bounded in count and time. It measures readings acknowledged per
second and the latency from a reading's first datagram to its receipt.

Each reading is `size` bytes starting with (node index, counter), so what a database
holds can be checked against what was acknowledged (`check_store`).
"""
import collections
import hashlib
import ipaddress
import os
import random
import select
import socket
import struct
import time

from motebox.errors import BadBox

from . import coap
from .wire import Sealer, key_id

_ID = struct.Struct(">IQ")
MAX_COUNT = 100_000_000
MAX_DURATION = 3600.0
_COAP_PATH = bytes((0xB1,)) + b"r"      # option Uri-Path (11), length 1, "r"


class HostNode:
    __slots__ = ("idx", "sk", "pk", "kid", "k", "next", "pending", "datagram", "t_first",
                 "t_last", "acked", "ready", "c")

    def __init__(self, idx, sk, pk, k):
        self.idx, self.sk, self.pk, self.kid, self.k = idx, sk, pk, key_id(pk), k
        self.next = 1               # a host node's counter lives in RAM for one run
        self.pending = None
        self.datagram = None
        self.t_first = self.t_last = 0.0
        self.acked = []
        self.ready = {}             # counter -> datagram sealed before the run
        self.c = None               # a motebox Node (the C node API), with c_nodes


def make_nodes(lib, server_pk, n, seed=None):
    """n host nodes with key pairs derived from `seed` (random if None)."""
    seed = os.urandom(16) if seed is None else bytes(seed)
    sealer = Sealer(lib)
    out = []
    for i in range(n):
        sk = hashlib.sha256(b"motebox loadgen node" + seed + i.to_bytes(4, "big")).digest()
        pk = lib.x25519_base(sk)
        out.append(HostNode(i, sk, pk, sealer.precompute(server_pk, sk)))
    return out


def register(store, nodes, prefix="loadgen"):
    """Add the nodes' public keys to the gateway's registry; {database id: node}."""
    ids = {}
    for n in nodes:
        ids[store.add_node(n.pk, f"{prefix}-{n.idx}")] = n
    return ids


def reading_for(idx, counter, size=64):
    """The reading node idx sends under counter: (idx, counter), then filler."""
    head = _ID.pack(idx, counter & 0xFFFFFFFFFFFFFFFF)
    return (head + bytes(range(256)) * 5)[:size] if size >= len(head) else head[:size]


def check_store(store, nodes, size=64):
    """(lost, duplicates) of a database against the nodes' acknowledged readings: lost =
    acknowledged but absent or different; duplicates = rows stored twice or holding a
    reading other than the one the node sent under that counter."""
    by_id = {n.kid: n for n in nodes}
    db_nodes = {n.id: by_id[n.key_id] for n in store.nodes() if n.key_id in by_id}
    stored, duplicates = set(), 0
    for node_id, counter, reading, _rc in store.readings():
        node = db_nodes.get(node_id)
        if node is None:
            continue
        key = (node.idx, counter)
        if key in stored or reading != reading_for(node.idx, counter, size):
            duplicates += 1
        stored.add(key)
    lost = sum((n.idx, c) not in stored for n in nodes for c in n.acked)
    return lost, duplicates


def _loopback_addr(host, port):
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_DGRAM)
    for fam, _t, _p, _c, addr in infos:
        if ipaddress.ip_address(addr[0]).is_loopback:
            return fam, addr
    raise ValueError(f"{host}: the load generator only sends to loopback addresses")


class LoadGen:
    """Drive `nodes` against the gateway at host:port. rate: readings/s in total;
    count, duration: bounds on new readings and on sending time; rto: retransmission
    timeout (s); drain: how long to wait for the last receipts."""

    def __init__(self, lib, nodes, host="127.0.0.1", port=5683, rate=1000, count=10_000,
                 duration=10.0, size=64, rto=0.2, drain=10.0, transport="coap",
                 confirmable=True, c_nodes=False):
        if not 0 < count <= MAX_COUNT or not 0 < duration <= MAX_DURATION or rate <= 0:
            raise ValueError(f"bounds: 0 < count <= {MAX_COUNT}, 0 < duration <= "
                             f"{MAX_DURATION:.0f} s, rate > 0")
        self.sealer = Sealer(lib)
        self.nodes, self.rate, self.count, self.duration = nodes, rate, count, duration
        self.size, self.rto, self.drain = size, rto, drain
        self.transport, self.confirmable = transport, confirmable
        # c_nodes: each node is the library's C node (mb_node_*, counters reserved ahead
        # in a 40-byte NVM image), sealing as it goes and opening its own receipts
        self.c_nodes = c_nodes
        if c_nodes:
            for n in nodes:
                if n.c is None:
                    n.c = lib.node(n.k, n.kid)
        fam, self.addr = _loopback_addr(host, port)
        self.sock = socket.socket(fam, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        self.sock.connect(self.addr)
        self.sock.setblocking(False)
        self._prepared = False
        self._mid = random.randrange(1 << 16)
        self._token = random.randrange(1 << 32)

    def close(self):
        self.sock.close()

    def wrap(self, payload):
        if self.transport != "coap":
            return payload
        self._mid = (self._mid + 1) & 0xFFFF
        self._token = (self._token + 1) & 0xFFFFFFFF
        t = coap.CON if self.confirmable else coap.NON
        return (bytes((0x44 | (t << 4), coap.POST, self._mid >> 8, self._mid & 0xFF))
                + self._token.to_bytes(4, "big") + _COAP_PATH + b"\xff" + payload)

    def unwrap(self, data):
        if self.transport != "coap":
            return data
        m = coap.decode(data)
        if m is None or m.code != coap.CHANGED or m.mtype not in (coap.ACK, coap.NON):
            return None
        return m.payload

    def uplink(self, node, counter):
        """The datagram of node's reading `counter` (deterministic: a retransmission or
        a replay is the identical message)."""
        reading = reading_for(node.idx, counter, self.size)
        return self.wrap(self.sealer.seal_reading(node.k, node.kid, counter, reading))

    def prepare(self, limit=400_000):
        """Seal the datagrams of the run ahead (up to `limit` in all), so the nodes'
        sealing does not take the CPU the gateway is measured with; the datagrams are
        the same as sealed on the fly. (C nodes seal as they go.)"""
        self._prepared = True
        if self.c_nodes:
            return
        per_node = min(-(-self.count // len(self.nodes)) + 1, limit // len(self.nodes))
        for n in self.nodes:
            n.ready = {c: self.uplink(n, c) for c in range(n.next, n.next + per_node)}
        self._prepared = True

    def run(self, stop=None):
        """Send until count or duration is reached, then wait up to `drain` s for the
        last receipts. `stop()` -> True ends the sending early. Returns the figures."""
        if not self._prepared:
            self.prepare()
        sock, sealer = self.sock, self.sealer
        by_kid = {n.kid: n for n in self.nodes}
        idle = collections.deque(n for n in self.nodes if n.pending is None)
        busy = {n.kid: n for n in self.nodes if n.pending is not None}
        lat, sent, retrans, bad, stray, refused = [], 0, 0, 0, 0, 0
        now = t0 = time.perf_counter()
        t_stop = None
        last_ack = t0
        next_scan = t0 + self.rto / 4
        while True:
            now = time.perf_counter()
            if t_stop is None:
                target = min(self.count, int((now - t0) * self.rate) + 1)
                while sent < target and idle:
                    node = idle.popleft()
                    if node.c is not None and self.c_nodes:
                        c = node.pending = node.c.next
                        dg = self.wrap(node.c.seal(reading_for(node.idx, c, self.size)))
                    else:
                        c = node.pending = node.next
                        node.next += 1
                        dg = node.ready.pop(c, None) or self.uplink(node, c)
                    node.datagram = dg
                    node.t_first = node.t_last = now
                    busy[node.kid] = node
                    try:
                        sock.send(dg)
                    except OSError:
                        refused += 1        # retransmitted on the next scan
                    sent += 1
                if sent >= self.count or now - t0 >= self.duration or (stop and stop()):
                    t_stop = now
            elif not busy or now - t_stop > self.drain:
                break
            while True:
                try:
                    data = sock.recv(2048)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:             # ICMP port unreachable: gateway down
                    refused += 1
                    continue
                payload = self.unwrap(data)
                node = by_kid.get(payload[1:9]) if payload else None
                if node is None or node.pending is None:
                    stray += 1              # a late answer to something already acked
                    continue
                if self.c_nodes:
                    try:
                        r = bytes((node.c.open_receipt(payload)[0],))
                    except BadBox:
                        r = None
                else:
                    r = sealer.open_receipt(node.k, node.kid, node.pending, payload)
                if r is None or r[0] != 0:
                    bad += 1
                    continue
                t = time.perf_counter()
                lat.append(t - node.t_first)
                last_ack = t
                node.acked.append(node.pending)
                node.pending = None
                del busy[node.kid]
                idle.append(node)
            if now >= next_scan:
                next_scan = now + self.rto / 4
                for node in busy.values():
                    if now - node.t_last >= self.rto:
                        node.t_last = now
                        retrans += 1
                        try:
                            sock.send(node.datagram)
                        except OSError:
                            refused += 1
            if t_stop is None and sent < self.count and idle:
                wait = max(0.0, min((sent + 1) / self.rate - (now - t0), 0.002))
            else:
                wait = 0.002
            if wait > 0:
                select.select([sock], [], [], wait)
        acked = len(lat)
        lat.sort()
        elapsed = last_ack - t0
        return {"sent": sent, "acked": acked, "unacked": len(busy), "elapsed_s": round(elapsed, 3),
                "readings_per_s": round(acked / elapsed) if elapsed > 0 else 0,
                "p50_ms": _pct(lat, 0.50), "p99_ms": _pct(lat, 0.99), "max_ms": _pct(lat, 1.0),
                "retransmissions": retrans, "bad_receipts": bad, "stray": stray,
                "send_errors": refused}

    def replay(self, attempts, rate=20_000, seed=1):
        """Replay attacks on the gateway: identical copies of acknowledged readings, and
        the same ciphertexts under other counters or other nodes' key ids. Returns how
        many were sent and how many answers came back (each must be the stored receipt
        of an identical copy; the caller checks the database did not change)."""
        rnd = random.Random(seed)
        done = [(n, c) for n in self.nodes for c in n.acked]
        if not done:
            raise ValueError("no acknowledged readings to replay")
        sock, answers, sent = self.sock, 0, 0
        t0 = time.perf_counter()
        cache = {}
        while sent < attempts:
            now = time.perf_counter()
            target = min(attempts, int((now - t0) * rate) + 1)
            while sent < target:
                node, c = done[rnd.randrange(len(done))]
                dg = cache.get((node.idx, c))
                if dg is None:
                    if len(cache) > 4096:
                        cache.clear()
                    dg = cache[(node.idx, c)] = self.uplink(node, c)
                kind = sent % 3
                if kind == 1:           # the same ciphertext under the next counter
                    body = self.unwrap_request(dg)
                    dg = self.wrap(body[:9] + (c + 1).to_bytes(8, "big") + body[17:])
                elif kind == 2:         # the same bytes claimed by another node
                    other = self.nodes[rnd.randrange(len(self.nodes))]
                    body = self.unwrap_request(dg)
                    dg = self.wrap(body[:1] + other.kid + body[9:])
                try:
                    sock.send(dg)
                except OSError:
                    pass
                sent += 1
            answers += self._drain_count()
            select.select([sock], [], [], 0.001)
        end = time.perf_counter() + 1.0
        while time.perf_counter() < end:
            answers += self._drain_count()
            select.select([sock], [], [], 0.01)
        return {"replays_tried": sent, "answers": answers}

    def unwrap_request(self, data):
        return coap.decode(data).payload if self.transport == "coap" else data

    def _drain_count(self):
        n = 0
        while True:
            try:
                self.sock.recv(2048)
            except (BlockingIOError, InterruptedError):
                return n
            except OSError:
                continue
            n += 1


def _pct(sorted_s, q):
    if not sorted_s:
        return None
    i = min(len(sorted_s) - 1, int(q * len(sorted_s)))
    return round(sorted_s[i] * 1000, 2)
