# SPDX-License-Identifier: MIT
"""A throwaway PostgreSQL server in a directory (tests, `make bench`, the demo): initdb,
then postgres listening on a Unix socket in that directory only (no TCP port). As root,
the server runs as the `postgres` user (PostgreSQL refuses to run as root).

    with TempPostgres(dir) as pg:
        url = pg.url          # postgresql:///postgres?host=<dir>&port=<port>&user=postgres
        pg.restart()          # a fast shutdown and start, e.g. under load
"""
import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time


def tool(name):
    """The path of a PostgreSQL server program: on PATH, or where Debian's postgresql
    package puts it (/usr/lib/postgresql/<version>/bin, newest first); None if absent."""
    found = shutil.which(name)
    if found:
        return found
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                    key=lambda p: [int(x) for x in re.findall(r"\d+", p)], reverse=True):
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    return None


def available():
    return tool("initdb") is not None and tool("pg_ctl") is not None


class TempPostgres:
    def __init__(self, directory=None, fsync=True):
        # default: a new directory in /tmp (as root, pytest's tmp dirs are closed to the
        # postgres user; a short path also keeps the socket's path under 108 bytes)
        self.dir = os.path.abspath(directory or tempfile.mkdtemp(prefix="motebox-pg-"))
        self.data = os.path.join(self.dir, "data")
        self.port = _free_port()
        self.fsync = fsync
        self.url = f"postgresql:///postgres?host={self.dir}&port={self.port}&user=postgres"
        self._as = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *cmd, check=True):
        return subprocess.run(self._as + list(cmd), check=check, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, cwd="/")

    def start(self):
        os.makedirs(self.dir, exist_ok=True)
        if self._as:
            pw = pwd.getpwnam("postgres")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        if not os.path.exists(self.data):
            self._run(tool("initdb"), "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync",
                      "-E", "UTF8")
        # wal_init_zero=off: a new cluster has no WAL segments to recycle, so under load
        # it creates one every couple of seconds, and zero-filling 16 MB held commits
        # for tens of ms (the whole p99 at 20,000 readings/s); a server that has run a
        # while recycles its segments. Off, a new segment gets its size without the
        # zeros; what they buy is disk space reserved ahead (a full disk then shows at a
        # WAL write, not at the segment's creation). Every commit is still flushed.
        opts = (f"-p {self.port} -k {self.dir} -c listen_addresses='' "
                f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=40 "
                f"-c shared_buffers=64MB -c wal_init_zero=off")
        self._run(tool("pg_ctl"), "-D", self.data, "-o", opts, "-l", os.path.join(self.dir, "log"),
                  "-w", "-t", "30", "start")
        return self

    def stop(self, mode="fast"):
        self._run(tool("pg_ctl"), "-D", self.data, "-m", mode, "-w", "-t", "30", "stop", check=False)

    def restart(self, mode="fast", down_s=0.0):
        """Stop the server (`immediate` is a crash), stay down `down_s`, start again."""
        self.stop(mode)
        time.sleep(down_s)
        self.start()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
