# SPDX-License-Identifier: MIT
"""SQLite storage (the default): one file in WAL mode; one transaction per batch of
readings (group commit). Several processes may share the file (SQLite's write lock
serialises their transactions).

Durability: a plain store (`motebox nodes`, tests) uses synchronous=FULL, so COMMIT
returns after the WAL is on disk. The gateway opens it with `gateway=True`: COMMIT only
writes the WAL (synchronous=NORMAL) and the gateway calls `sync()` (fdatasync of the
WAL, off the event loop) before it sends any receipt of the batch — the same guarantee,
without stopping the loop for the disk; checkpoints run on a second connection in a
background thread (`checkpointer`) instead of inside a commit."""
import datetime
import os
import sqlite3
import threading

from .store import (BIAS, DUPLICATE, STORED, TOO_OLD, DuplicateKeyId, Node, Store,
                    floor_for, to_counter, to_seq)

SCHEMA = """
CREATE TABLE IF NOT EXISTS nodes(
    id INTEGER PRIMARY KEY,
    key_id BLOB NOT NULL UNIQUE,
    pk BLOB NOT NULL,
    name TEXT,
    revoked INTEGER NOT NULL DEFAULT 0,
    high_water INTEGER NOT NULL,       -- highest stored counter - 2^63
    floor INTEGER NOT NULL,            -- lowest counter inside the window - 2^63
    added TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS readings(
    node INTEGER NOT NULL,             -- nodes(id); nodes are revoked, never deleted
    seq INTEGER NOT NULL,              -- counter - 2^63
    reading BLOB NOT NULL,
    receipt BLOB NOT NULL,
    txn INTEGER NOT NULL,              -- the batch that stored it
    UNIQUE (node, seq));
"""
# (rows are appended in arrival order; only the small (node, seq) index is scattered)
INSERT = ("INSERT INTO readings(node, seq, reading, receipt, txn) VALUES (?, ?, ?, ?, ?) "
          "ON CONFLICT DO NOTHING")
ADVANCE = "UPDATE nodes SET high_water = max(high_water, ?2), floor = max(floor, ?3) WHERE id = ?1"


class SqliteStore(Store):
    kind = "sqlite"

    def __init__(self, path, gateway=False):
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                  timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={'NORMAL' if gateway else 'FULL'}")
        if gateway:
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            # a WAL that grew past this is cut back when it starts again; above the
            # checkpointer's reset size, so the file is reused, not cut and grown again
            self.db.execute(f"PRAGMA journal_size_limit={256 << 20}")
        self.db.executescript(SCHEMA)
        self._wal = None
        self._ckdb = None       # finish_checkpoint's connection
        self._ck_lock = threading.Lock()   # one checkpoint of this process at a time

    def close(self):
        self.db.close()
        if self._ckdb is not None:
            self._ckdb.close()
            self._ckdb = None
        if self._wal is not None:
            os.close(self._wal)
            self._wal = None

    def sync(self):
        """Make every committed transaction durable: fdatasync the WAL (gateway mode)."""
        if self._wal is None:
            self._wal = os.open(self.path + "-wal", os.O_RDONLY | os.O_CLOEXEC)
        os.fdatasync(self._wal)

    def checkpointer(self, interval=0.25, reset_bytes=64 << 20):
        """A thread copying the WAL into the database file every `interval` s on its own
        connection (the work is in SQLite, outside the GIL). A PASSIVE checkpoint never
        waits for the writer, but under constant writing it never catches up either (new
        frames arrive while it copies), so the WAL, which every page lookup searches,
        would grow without end. Past `reset_bytes` the thread sets `.wants_reset`: the
        writer then calls `finish_checkpoint` between two batches. After each pass the
        thread also fdatasyncs the database file, so that the completed checkpoint's own
        sync (which the writer waits for) finds little left to write. Stop it with
        .stop.set()."""
        stop = threading.Event()
        frame = 24 + self.db.execute("PRAGMA page_size").fetchone()[0]  # WAL frame bytes

        def run():
            db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                while not stop.wait(interval):
                    try:
                        _busy, frames, _done = self._passive(db)
                        if frames * frame > reset_bytes:    # the live part, not the file
                            t.wants_reset = True
                    except sqlite3.OperationalError:
                        pass            # busy: the next round does it
                    os.fdatasync(fd)
            finally:
                os.close(fd)
                db.close()
        t = threading.Thread(target=run, name="sqlite-checkpoint", daemon=True)
        t.stop = stop
        t.wants_reset = False
        t.start()
        return t

    def _passive(self, db):
        """(busy, frames in the WAL, frames copied) of a PASSIVE checkpoint on
        connection db, one of this process's at a time. fetchall: an unfinished
        statement would hold a read lock, which keeps the WAL from starting again."""
        with self._ck_lock:
            return db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0]

    def finish_checkpoint(self):
        """A PASSIVE checkpoint run while the writer waits for it (no frame arrives
        meanwhile), so it copies every frame; the next write transaction then starts
        the WAL again from its beginning (and journal_size_limit shrinks it). The
        background thread's last pass has just copied most frames, so this one is short
        (a few ms). A RESTART checkpoint from the background thread instead blocked the
        writer inside a commit for tens of milliseconds, which was the p99 latency tail
        at 20,000 readings/s. On its own connection (called from a worker thread, never
        with the writer's). Returns True if every frame was copied."""
        if self._ckdb is None:
            self._ckdb = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                                         check_same_thread=False)
        try:
            busy, log, done = self._passive(self._ckdb)   # after the background pass
        except sqlite3.OperationalError:
            return False                # another process's checkpoint: try again later
        return not busy and log == done

    def _tx(self, fn):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            out = fn()
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        return out

    # --- registry -------------------------------------------------------------------
    def add_node(self, pk, name=None):
        pk, kid = self.check_pk(pk)

        def add():
            if self.db.execute("SELECT 1 FROM nodes WHERE key_id = ?", (kid,)).fetchone():
                raise DuplicateKeyId(f"a node with key id {kid.hex()} is already registered")
            now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
            cur = self.db.execute(
                "INSERT INTO nodes(key_id, pk, name, high_water, floor, added) VALUES (?,?,?,?,?,?)",
                (kid, pk, name, to_seq(0), to_seq(1), now))
            return cur.lastrowid
        return self._tx(add)

    def nodes(self):
        rows = self.db.execute("SELECT id, key_id, pk, name, revoked, high_water, added "
                               "FROM nodes ORDER BY id").fetchall()
        return [Node(r[0], r[1], r[2], r[3], bool(r[4]), to_counter(r[5]), r[6]) for r in rows]

    def revoke(self, ids):
        return self._tx(lambda: self.db.executemany(
            "UPDATE nodes SET revoked = 1 WHERE id = ?", [(i,) for i in ids]).rowcount)

    # --- readings -------------------------------------------------------------------
    def store(self, items):
        """Store a batch [(node id, counter, reading, receipt)] in one transaction: each
        row once (unique (node, seq)), inside the window, and the window advanced.
        Returns per item (STORED, None), (DUPLICATE, stored receipt) or (TOO_OLD, None).
        Items must be distinct (node, counter) pairs."""
        txn = self.new_txn()

        def run():
            # inside BEGIN IMMEDIATE no other writer moves the windows read here
            nodes = list({i[0] for i in items})
            floors = {}
            for j in range(0, len(nodes), 500):
                part = nodes[j:j + 500]
                floors.update(self.db.execute(
                    f"SELECT id, floor FROM nodes WHERE id IN ({','.join('?' * len(part))})",
                    part).fetchall())
            rows = [(n, s, r, rc, txn) for n, c, r, rc in items
                    if (s := c - BIAS) >= floors.get(n, BIAS)]
            inserted = self.db.executemany(INSERT, rows).rowcount
            if inserted == len(items):
                results = [(STORED, None)] * len(items)
                top = self.split_batch(items)
            else:
                results, top = self._sort_out(items, txn)
            self.db.executemany(ADVANCE, [(n, to_seq(c), to_seq(floor_for(c)))
                                          for n, c in top.items()])
            return results
        return self._tx(run)

    def _sort_out(self, items, txn):
        results, top = [], {}
        for n, c, _r, _rc in items:
            row = self.db.execute("SELECT receipt, txn FROM readings WHERE node = ? AND seq = ?",
                                  (n, to_seq(c))).fetchone()
            if row is None:
                results.append((TOO_OLD, None))
            elif row[1] == txn:
                results.append((STORED, None))
                top[n] = max(top.get(n, 0), c)
            else:
                results.append((DUPLICATE, row[0]))
        return results, top

    def readings(self, node=None):
        """[(node id, counter, reading, receipt)], in (node, counter) order."""
        q = "SELECT node, seq, reading, receipt FROM readings"
        args = ()
        if node is not None:
            q, args = q + " WHERE node = ?", (node,)
        return [(n, to_counter(s), r, rc)
                for n, s, r, rc in self.db.execute(q + " ORDER BY node, seq", args)]

    def count(self):
        return self.db.execute("SELECT count(*) FROM readings").fetchone()[0]
