# SPDX-License-Identifier: MIT
"""Running a gateway from Python (tests, `make bench`, the demo): in a thread of this
process (`GatewayThread`), or as a `motebox serve` child process that can be killed with
SIGKILL and started again on the same port (`GatewayProcess`)."""
import asyncio
import os
import signal
import subprocess
import sys
import threading
import time

from .server import Gateway


def fetch_stats(port, host="127.0.0.1", timeout=5.0):
    """The counters of a running gateway (CoAP GET /stats, answered on loopback only)."""
    import json
    import socket
    from . import coap
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(timeout)
        s.connect((host, port))
        s.send(coap.encode(coap.CON, coap.GET, 0x5157, b"st", path=("stats",)))
        while True:
            m = coap.decode(s.recv(65536))
            if m is not None and m.token == b"st":
                return json.loads(m.payload)


class GatewayThread:
    """with GatewayThread(db_url, server_sk, lib) as gw: ... gw.port, gw.stats()"""

    def __init__(self, url, sk, lib, **kw):
        kw.setdefault("port", 0)
        kw.setdefault("log", lambda msg: None)
        self.gw = Gateway(url, sk, lib, **kw)
        self.error = None

    def __enter__(self):
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.stop = asyncio.Event()
            try:
                self.loop.run_until_complete(self.gw.serve(self.stop, ready=lambda g: started.set()))
            except BaseException as e:        # reported by __enter__ / __exit__
                self.error = e
                started.set()
        self.thread = threading.Thread(target=run, name="gateway", daemon=True)
        self.thread.start()
        if not started.wait(30) or self.error:
            raise RuntimeError(f"the gateway did not start: {self.error!r}")
        return self.gw

    def reload(self):
        """Make the gateway read its registry now (after adding a node)."""
        asyncio.run_coroutine_threadsafe(self.gw.reload_nodes(), self.loop).result(30)

    def __exit__(self, *exc):
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)
        self.loop.close()
        if self.error and not exc[0]:
            raise self.error


class GatewayProcess:
    """`motebox serve` as a child process on a fixed port."""

    def __init__(self, db, key_file, port, commit_ms=1.0, transport="coap", env=None,
                 log=None):
        self.args = [sys.executable, "-m", "motebox.cli", "serve", "--key", str(key_file),
                     "--db", db, "--listen", f"127.0.0.1:{port}", "--commit-ms", str(commit_ms),
                     "--transport", transport]
        self.env = dict(os.environ, **(env or {}))
        self.log = log
        self.proc = None
        self.port = port

    def start(self, timeout=30):
        self.proc = subprocess.Popen(self.args, env=self.env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            line = self.proc.stderr.readline()
            if not line:
                break
            if self.log:
                self.log(line.rstrip())
            if "listening on" in line:
                threading.Thread(target=self._drain, daemon=True).start()
                return self
        raise RuntimeError(f"motebox serve did not start (exit {self.proc.poll()})")

    def _drain(self):
        p = self.proc
        for line in p.stderr:
            if self.log:
                self.log(line.rstrip())

    def kill(self):
        """SIGKILL: no clean-up of any kind."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        """SIGTERM, then the final counters (JSON printed by motebox serve)."""
        import json
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=30)
        for line in out.splitlines():
            if line.startswith('{"gateway"'):
                return json.loads(line)["gateway"]
        return None
