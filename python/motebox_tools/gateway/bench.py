# SPDX-License-Identifier: MIT
"""`make bench-gateway`: the gateway's figures in bench/results/gateway.json.

  throughput  one `motebox serve` process (SQLite, then PostgreSQL with fsync on) fed by
              the load generator (this process) on loopback: readings/s acknowledged,
              latency from a reading's first datagram to its receipt (p50, p99)
  kill -9     the gateway killed with SIGKILL and restarted N times under load
  replays     >= 1,000,000 replayed / re-addressed messages after a run
  postgres    the database restarted (fast shutdown and crash) under load
  lossy link  20 % of datagrams dropped and 10 % duplicated, both directions

Every fault run ends with the database checked against what the nodes saw acknowledged:
lost = acknowledged but not stored (or stored different), duplicates = stored twice.
    python -m motebox_tools.gateway.bench [--quick] [--out FILE]
"""
import argparse
import json
import os
import platform
import re
import shutil
import sys
import tempfile
import threading
import time

import nacl.bindings

import motebox
from motebox import keyfile

from . import loadgen, pgtmp
from .harness import GatewayProcess, fetch_stats
from .store import open_store


def _log(msg):
    print(f"bench-gateway: {msg}", file=sys.stderr, flush=True)


class Bench:
    def __init__(self, work, quick):
        self.work, self.quick = work, quick
        self.lib = motebox.lib()
        self.pk, self.sk = nacl.bindings.crypto_box_keypair()
        self.key = os.path.join(work, "server.sk")
        keyfile.write_key(self.key, self.sk, "secret")
        self.rows = []
        self._n = 0

    def sqlite_url(self):
        self._n += 1
        return os.path.join(self.work, f"gw{self._n}.db")

    def fleet(self, url, n):
        nodes = loadgen.make_nodes(self.lib, self.pk, n)
        store = open_store(url)
        loadgen.register(store, nodes)
        store.close()
        return nodes

    def gateway(self, url):
        return GatewayProcess(url, self.key, pgtmp._free_port()).start()

    def check(self, url, nodes):
        store = open_store(url)
        try:
            return loadgen.check_store(store, nodes)
        finally:
            store.close()

    # --- runs -----------------------------------------------------------------------
    def throughput(self, db, url, nodes=1000, rate=20_000, seconds=10.0):
        load = os.getloadavg()[0]
        fleet = self.fleet(url, nodes)
        gw = self.gateway(url)
        gen = loadgen.LoadGen(self.lib, fleet, port=gw.port, rate=rate,
                              count=int(rate * seconds), duration=seconds, rto=0.5)
        r = gen.run()
        gen.close()
        st = gw.stop()
        lost, dup = self.check(url, fleet)
        row = {"db": db, "run": f"load {rate:,}/s offered", "offered": rate, "nodes": nodes,
               "readings": r["acked"], "readings_per_s": r["readings_per_s"],
               "p50_ms": r["p50_ms"], "p99_ms": r["p99_ms"], "lost": lost, "duplicates": dup,
               "retransmissions": r["retransmissions"],
               "gateway_cpu_us_per_reading": round(st["cpu_s"] * 1e6 / max(1, st["stored"]), 1),
               "loadavg_before": round(load, 2)}
        _log(json.dumps(row))
        self.rows.append(row)

    def kill9(self, restarts, every=0.4, rate=4000, nodes=200):
        url = self.sqlite_url()
        fleet = self.fleet(url, nodes)
        gw = self.gateway(url)
        done = []

        def killer():
            for _ in range(restarts):
                time.sleep(every)
                gw.kill()
                gw.start()
                done.append(1)
        t = threading.Thread(target=killer)
        gen = loadgen.LoadGen(self.lib, fleet, port=gw.port, rate=rate, count=10**8,
                              duration=600, rto=0.1, drain=30)
        gen.prepare()
        t.start()
        r = gen.run(stop=lambda: len(done) >= restarts)
        t.join()
        gen.close()
        gw.stop()
        lost, dup = self.check(url, fleet)
        row = {"db": "sqlite", "run": "kill -9 of the gateway under load", "nodes": nodes,
               "readings": r["acked"], "restarts": len(done), "lost": lost,
               "duplicates": dup, "unacked": r["unacked"]}
        _log(json.dumps(row))
        self.rows.append(row)

    def replays(self, attempts, rate=10_000):
        url = self.sqlite_url()
        fleet = self.fleet(url, 200)
        gw = self.gateway(url)
        gen = loadgen.LoadGen(self.lib, fleet, port=gw.port, rate=5000, count=20_000,
                              duration=30)
        r = gen.run()
        store = open_store(url)
        before = store.count()
        seen = fetch_stats(gw.port)["received"]
        rep = gen.replay(attempts, rate=rate)
        gen.close()
        st = gw.stop()
        seen = st["received"] - seen
        after = store.count()
        store.close()
        lost, dup = self.check(url, fleet)
        row = {"db": "sqlite", "run": "replays after a run", "nodes": 200,
               "readings": r["acked"], "replays_tried": rep["replays_tried"],
               "replays_received": seen,
               "replays_accepted": (after - before) + (st["stored"] - r["acked"]),
               "lost": lost, "duplicates": dup}
        _log(json.dumps(row))
        self.rows.append(row)

    def bad_inputs(self, each, rate=10_000):
        """Truncated, oversized, garbage, unknown-sender, wrong-key and replayed
        datagrams, `each` of each kind: every one counted under its reason, none stored."""
        import random
        import socket
        url = self.sqlite_url()
        fleet = self.fleet(url, 50)
        stranger = loadgen.make_nodes(self.lib, self.pk, 1)[0]          # not registered
        impostor = loadgen.make_nodes(self.lib, self.pk, 1)[0]          # claims fleet[0]
        impostor.kid = fleet[0].kid
        gw = self.gateway(url)
        gen = loadgen.LoadGen(self.lib, fleet, port=gw.port, rate=2000, count=1000, duration=10)
        gen.run()
        rnd = random.Random(5)
        good = gen.uplink(fleet[1], 1)
        kinds = {
            "malformed": [lambda: gen.wrap(good[:rnd.randrange(1, 34)]),            # truncated
                          lambda: gen.wrap(gen.unwrap_request(good) + bytes(1025)),  # oversized
                          lambda: rnd.randbytes(rnd.randrange(1, 200))],             # garbage
            "unknown_sender": [lambda: gen.uplink(stranger, rnd.randrange(1, 1 << 40))],
            "bad_tag": [lambda: gen.uplink(impostor, rnd.randrange(1, 1 << 40))],    # wrong key
            "duplicate": [lambda: gen.uplink(fleet[rnd.randrange(50)], rnd.randrange(1, 20))],
        }
        before = fetch_stats(gw.port)
        store = open_store(url)
        rows = store.count()
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.connect(("127.0.0.1", gw.port))
        sent = {k: 0 for k in kinds}
        t0 = time.perf_counter()
        total = 0
        for kind, makers in kinds.items():
            for i in range(each * len(makers)):
                sock.send(makers[i % len(makers)]())
                sent[kind] += 1
                total += 1
                while total > (time.perf_counter() - t0) * rate:
                    time.sleep(0.001)
        time.sleep(1.0)
        sock.close()
        gen.close()
        after = fetch_stats(gw.port)
        gw.stop()
        stored = store.count() - rows
        store.close()
        counted = {k: after[k] - before[k] for k in kinds}
        lost, dup = self.check(url, fleet)
        row = {"db": "sqlite", "run": "bad inputs: truncated, oversized, garbage, unknown "
               "sender, wrong key, replayed", "nodes": 50, "readings": 1000,
               "bad_inputs_sent": total, "bad_inputs_counted": sum(counted.values()),
               "counted": counted, "sent": sent, "accepted": stored + after["stored"]
               - before["stored"], "lost": lost, "duplicates": dup}
        _log(json.dumps(row))
        self.rows.append(row)

    def pg_restarts(self, pg, url, restarts, every=1.0):
        fleet = self.fleet(url, 200)
        gw = self.gateway(url)
        done = []

        def restarter():
            for i in range(restarts):
                time.sleep(every)
                pg.restart(mode="immediate" if i % 2 else "fast")
                done.append(1)
        t = threading.Thread(target=restarter)
        gen = loadgen.LoadGen(self.lib, fleet, port=gw.port, rate=3000, count=10**8,
                              duration=600, rto=0.2, drain=30)
        gen.prepare()
        t.start()
        r = gen.run(stop=lambda: len(done) >= restarts)
        t.join()
        gen.close()
        st = gw.stop()
        lost, dup = self.check(url, fleet)
        row = {"db": "postgresql", "run": "database restarts under load (fast, crash)",
               "nodes": 200, "readings": r["acked"], "restarts": len(done), "lost": lost,
               "duplicates": dup, "unacked": r["unacked"], "db_errors": st["db_errors"]}
        _log(json.dumps(row))
        self.rows.append(row)

    def lossy(self, seconds=5.0):
        from .lossy import LossyLink
        url = self.sqlite_url()
        fleet = self.fleet(url, 100)
        gw = self.gateway(url)
        link = LossyLink(gw.port, drop=0.2, dup=0.1)
        gen = loadgen.LoadGen(self.lib, fleet, port=link.port, rate=2000,
                              count=int(2000 * seconds), duration=seconds, rto=0.05, drain=30)
        r = gen.run()
        gen.close()
        link.close()
        st = gw.stop()
        lost, dup = self.check(url, fleet)
        row = {"db": "sqlite", "run": "lossy link: 20 % dropped, 10 % duplicated", "nodes": 100,
               "readings": r["acked"], "retransmissions": r["retransmissions"],
               "duplicates_received": st["duplicate"], "lost": lost, "duplicates": dup,
               "unacked": r["unacked"]}
        _log(json.dumps(row))
        self.rows.append(row)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.gateway.bench")
    ap.add_argument("--quick", action="store_true", help="short runs (a smoke test)")
    ap.add_argument("--out", default=None, help="default: bench/results/gateway.json")
    args = ap.parse_args(argv)
    from ..paths import repo
    out = args.out or str(repo() / "bench" / "results" / "gateway.json")
    q = args.quick
    work = tempfile.mkdtemp(prefix="motebox-gw-bench-")
    t0 = time.time()
    load0 = os.getloadavg()[0]
    b = Bench(work, q)
    try:
        # capacity (offered above the goal: acknowledged/s can never exceed the offer),
        # latency at the goal's rate, and at half of it
        b.throughput("sqlite", b.sqlite_url(), rate=25_000, seconds=2 if q else 8)
        b.throughput("sqlite", b.sqlite_url(), seconds=2 if q else 8)
        b.throughput("sqlite", b.sqlite_url(), rate=10_000, seconds=2 if q else 6)
        if pgtmp.available():
            with pgtmp.TempPostgres() as pg:
                b.throughput("postgresql", pg.url, rate=25_000, seconds=2 if q else 8)
                b.throughput("postgresql", pg.url, seconds=2 if q else 8)
                b.pg_restarts(pg, pg.url, 2 if q else 6)
        b.kill9(5 if q else 100)
        b.replays(20_000 if q else 1_050_000)
        b.lossy(2 if q else 5)
        b.bad_inputs(1000 if q else 10_000)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result = {
        "kind": "gateway", "target": "gateway",
        "title": "Gateway (`motebox serve`): throughput, latency and faults",
        "conditions": (f"one gateway process and the load generator on the same "
                       f"{os.cpu_count()}-core machine (load average {load0:.1f} before the "
                       f"runs, {os.getloadavg()[0]:.1f} after: other work on the machine "
                       f"takes CPU from both; {platform.machine()}, Python "
                       f"{platform.python_version()}), loopback CoAP (CON), 64-byte readings, "
                       f"SQLite WAL with fdatasync per batch, PostgreSQL "
                       f"{_pg_version()} with fsync on (a new cluster: shared_buffers 64 MB, "
                       f"wal_init_zero off); {time.time() - t0:.0f} s in all"),
        "rows": b.rows,
        "goals": {"readings_per_s": 20_000, "p99_ms": 20, "restarts": 100,
                  "replays_tried": 1_000_000},
    }
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    _log(f"wrote {out} ({time.time() - t0:.0f} s)")
    return 0


def _pg_version():
    import subprocess
    try:
        out = subprocess.run([pgtmp.tool("postgres") or "postgres", "--version"],
                             capture_output=True, text=True, check=True).stdout
        return re.search(r"\(PostgreSQL\) ([0-9.]+)", out).group(1)
    except (OSError, subprocess.CalledProcessError, AttributeError):
        return "(not installed)"


if __name__ == "__main__":
    sys.exit(main())
