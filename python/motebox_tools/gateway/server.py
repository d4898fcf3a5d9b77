# SPDX-License-Identifier: MIT
"""The gateway: an asyncio UDP server (CoAP by default, or bare UDP datagrams) that
opens node messages, stores each reading exactly once and answers with its receipt only
after the reading's transaction is durable.

One event loop does everything: it receives, checks and opens datagrams, queues the
readings, and one writer task stores them in batches (group commit: the readings that
arrived while the previous batch was being made durable, or during `commit_ms`, go in
one transaction) and then sends their receipts. A retransmission of a reading still in
flight waits for the same batch; one of a stored reading gets the stored receipt from
the database. No Python thread competes with the loop for the interpreter: the disk
flush and PostgreSQL's round trips are waited for, not run, by the loop.
"""
import asyncio
import collections
import gc
import json
import socket
import sys
import time

from . import coap
from .backend import open_backend
from .store import STORED, TOO_OLD
from .wire import MAX_COUNTER, MAX_UPLINK, MIN_UPLINK, TYPE_READING, Sealer

REASONS = ("stored", "duplicate", "too_old", "malformed", "unknown_sender", "bad_tag",
           "overloaded")


class _Node:
    __slots__ = ("id", "k", "kid", "revoked")

    def __init__(self, id, k, kid, revoked):
        self.id, self.k, self.kid, self.revoked = id, k, kid, revoked


class Gateway:
    """One gateway process's server. `store_url` names the database; `server_sk` is the
    server's X25519 secret key; `lib` a motebox.Library."""

    def __init__(self, store_url, server_sk, lib, host="127.0.0.1", port=5683,
                 transport="coap", commit_ms=1.0, max_batch=4096, max_queue=65536,
                 reload_s=2.0, log=None):
        if transport not in ("coap", "udp"):
            raise ValueError("transport is coap or udp")
        self.store_url, self.sk, self.lib = store_url, bytes(server_sk), lib
        self.host, self.port, self.transport = host, port, transport
        self.commit_s, self.max_batch, self.max_queue = commit_ms / 1000, max_batch, max_queue
        self.reload_s = reload_s
        self.log = log or (lambda msg: print(f"motebox serve: {msg}", file=sys.stderr, flush=True))
        self.counts = dict.fromkeys(REASONS, 0)
        self.counts.update(received=0, batches=0, db_errors=0)
        self.sealer = Sealer(lib)
        self.nodes = {}          # key id -> _Node
        self._keys = {}          # pk -> k (beforenm is ~40 us: once per node)
        self.inflight = {}       # (node id, counter) -> [reply targets]
        self.queue = collections.deque()
        self.wake = None         # asyncio.Event: the queue is not empty
        self.backend = None
        self.stopping = False
        self._mid = 0
        self._last_reload = 0.0
        self._version = None     # the registry's (count, max id, revoked) when last read
        self._commit_s = 0.0     # time from a batch's start to its durability, summed
        self._flushing = set()   # batches committed, waiting for their flush

    # --- registry -----------------------------------------------------------------
    async def reload_nodes(self):
        """Read the registry again (new nodes, revocations) if it changed; keep what is
        known if the database cannot be read now."""
        self._last_reload = time.monotonic()
        try:
            version = await self.backend.registry_version()
            if version == self._version:
                return
            rows = await self.backend.nodes()
        except Exception as e:
            self.log(f"reading the node registry failed ({type(e).__name__}); keeping "
                     f"{len(self.nodes)} known nodes")
            return
        fresh = {}
        for n in rows:
            k = self._keys.get(n.pk)
            if k is None:
                try:
                    k = self._keys[n.pk] = self.sealer.precompute(n.pk, self.sk)
                except Exception:        # a low-order key can never send anything
                    continue
            fresh[n.key_id] = _Node(n.id, k, n.key_id, n.revoked)
        self.nodes = fresh
        self._version = version

    # --- receiving ----------------------------------------------------------------
    def _readable(self):
        sock = self.sock
        handle = self._coap if self.transport == "coap" else self._uplink
        for _ in range(512):
            try:
                data, addr = sock.recvfrom(2048)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                continue          # ICMP errors of earlier sends surface here
            self.counts["received"] += 1
            handle(data, addr, None)
        if self.queue:
            self.wake.set()

    def _coap(self, data, addr, _):
        m = coap.decode(data)
        if m is None or m.mtype in (coap.ACK, coap.RST):
            self.counts["malformed"] += 1
            return
        if m.code == coap.POST and m.path == ("r",):
            self._uplink(m.payload, addr, m)
        elif m.code == coap.GET and m.path == ("stats",) and _loopback(addr):
            self._answer(addr, m, json.dumps(self.stats()).encode(), coap.CONTENT)
        elif m.code == coap.EMPTY and m.mtype == coap.CON:       # CoAP ping
            self._send(coap.encode(coap.RST, coap.EMPTY, m.mid), addr)
        else:
            self.counts["malformed"] += 1

    def _uplink(self, data, addr, req):
        counts = self.counts
        if not MIN_UPLINK <= len(data) <= MAX_UPLINK or data[0] != TYPE_READING:
            counts["malformed"] += 1
            return
        kid = data[1:9]
        node = self.nodes.get(kid)
        if node is None and time.monotonic() - self._last_reload > 1.0:
            self._last_reload = time.monotonic()   # a node added since the last look?
            asyncio.ensure_future(self.reload_nodes())
        if node is None or node.revoked:
            counts["unknown_sender"] += 1
            return
        counter = int.from_bytes(data[9:17], "big")
        if not 1 <= counter <= MAX_COUNTER:
            counts["malformed"] += 1
            return
        reading = self.sealer.open_reading(node.k, counter, data)
        if reading is None:
            counts["bad_tag"] += 1
            return
        key = (node.id, counter)
        waiting = self.inflight.get(key)
        if waiting is not None:                   # a retransmission of one in flight
            waiting.append((addr, req))
            return
        if len(self.queue) >= self.max_queue:
            counts["overloaded"] += 1
            return
        receipt = self.sealer.seal_receipt(node.k, node.kid, counter)
        self.inflight[key] = [(addr, req)]
        self.queue.append((node.id, counter, reading, receipt))

    # --- answering ------------------------------------------------------------------
    def _send(self, data, addr):
        try:
            self.sock.sendto(data, addr)
        except OSError:
            pass                  # a full socket buffer: the node retransmits

    def _answer(self, addr, req, payload, code=coap.CHANGED):
        if req is None:
            self._send(payload, addr)
            return
        mid = req.mid
        if req.mtype != coap.CON:
            self._mid = mid = (self._mid + 1) & 0xFFFF
        self._send(coap.response_prefix(req.mtype, mid, req.token, code) + b"\xff" + payload,
                   addr)

    def _committed(self, items, results):
        counts = self.counts
        counts["batches"] += 1
        for (node, counter, _r, receipt), (status, stored) in zip(items, results):
            waiting = self.inflight.pop((node, counter), ())
            if status == TOO_OLD:
                counts["too_old"] += len(waiting)
                continue
            if status == STORED:
                counts["stored"] += 1
                counts["duplicate"] += len(waiting) - 1
            else:
                counts["duplicate"] += len(waiting)
                receipt = stored
            for addr, req in waiting:
                self._answer(addr, req, receipt)

    # --- the writer task -------------------------------------------------------------
    async def _writer(self):
        q = self.queue
        while True:
            if not q:
                if self.stopping:
                    break
                self.wake.clear()
                await self.wake.wait()
                if self.commit_s > 0:
                    await asyncio.sleep(self.commit_s)     # group commit: gather a little
                continue
            items = [q.popleft() for _ in range(min(len(q), self.max_batch))]
            t = time.perf_counter()
            while True:
                try:
                    results, durable = await self.backend.store(items)
                    break
                except Exception as e:             # the database went away: retry the batch
                    self.counts["db_errors"] += 1
                    self.log(f"storing a batch failed ({type(e).__name__}: {e}); retrying")
                    await asyncio.sleep(0.2)
                    await self._reconnect()
            if durable is None:
                self._answered(items, results, t)
            else:                                  # answer once on disk; go on meanwhile
                task = asyncio.ensure_future(self._when_durable(durable, items, results, t))
                self._flushing.add(task)
                task.add_done_callback(self._flushing.discard)
        if self._flushing:
            await asyncio.gather(*self._flushing, return_exceptions=True)

    async def _when_durable(self, durable, items, results, t):
        try:
            await durable
        except Exception as e:     # the flush failed: no receipt; the nodes retransmit
            self.counts["db_errors"] += 1
            self.log(f"flushing a batch failed ({type(e).__name__}: {e})")
            for node, counter, _r, _rc in items:
                self.inflight.pop((node, counter), None)
            return
        self._answered(items, results, t)

    def _answered(self, items, results, t):
        self._commit_s += time.perf_counter() - t
        self._committed(items, results)

    async def _reconnect(self):
        await self.backend.close()
        try:
            await self.backend.connect()
        except Exception as e:
            self.log(f"reconnecting to the database failed ({type(e).__name__})")

    # --- running --------------------------------------------------------------------
    def stats(self):
        return dict(self.counts, nodes=len(self.nodes), queued=len(self.queue),
                    inflight=len(self.inflight), cpu_s=round(time.process_time(), 3),
                    commit_ms_avg=round(self._commit_s * 1000 / max(1, self.counts["batches"]), 2))

    async def serve(self, stop, ready=None):
        """Serve until the asyncio.Event `stop` is set; then store the readings in hand
        (and answer them). `ready(gateway)` is called once the socket is bound."""
        loop = asyncio.get_running_loop()
        self.wake = asyncio.Event()
        self.stopping = False
        self.backend = open_backend(self.store_url)
        await self.backend.connect()
        await self.reload_nodes()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
        self.sock.bind((self.host, self.port))
        self.port = self.sock.getsockname()[1]
        self.sock.setblocking(False)
        # The registry, the keys and the modules live as long as the process: kept out
        # of the cyclic collector's passes, which would otherwise walk them all again
        # and again while the loop waits.
        gc.collect()
        gc.freeze()
        writer = asyncio.ensure_future(self._writer())
        loop.add_reader(self.sock, self._readable)
        self.log(f"listening on {self.host}:{self.port} ({self.transport}), "
                 f"{len(self.nodes)} nodes, database {_redact(self.store_url)}")
        if ready is not None:
            ready(self)
        try:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(stop.wait(), self.reload_s)
                except asyncio.TimeoutError:
                    await self.reload_nodes()           # revocations and new nodes
        finally:
            loop.remove_reader(self.sock)
            self.stopping = True
            self.wake.set()
            try:
                await asyncio.wait_for(writer, 10)
            except Exception:
                writer.cancel()
            self.sock.close()
            await self.backend.close()


def _loopback(addr):
    return addr[0].startswith("127.") or addr[0] == "::1"


def _redact(url):
    if "://" in url and "@" in url:         # user:password@host -> ***@host
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url
