# SPDX-License-Identifier: MIT
"""The storage as the gateway's event loop uses it: `await store(batch)` returns
(results, durable): the batch is committed, and durable (None, or an awaitable) says
when it is on disk; the loop is never blocked on the disk or the network.

SQLite: the INSERTs and COMMIT run in the loop (microseconds per row), the WAL's
fdatasync in a worker thread; the next batch can commit while the previous one is being
flushed, and one flush makes every batch committed before it durable (group commit).
PostgreSQL: psycopg's asyncio connection; COMMIT returns after the server has flushed
its WAL (synchronous_commit on), so durable is None."""
import asyncio
import concurrent.futures
import secrets

from .store import Node, to_counter


VERSION = "SELECT count(*), coalesce(max(id), 0), coalesce(sum(revoked), 0) FROM nodes"


def open_backend(url):
    if url.startswith(("postgresql://", "postgres://")):
        return PgBackend(url)
    return SqliteBackend(url)


class SqliteBackend:
    def __init__(self, url):
        self.url = url
        self.pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="sqlite-sync")
        self.s = self.ck = None
        self._committed = 0      # batches committed
        self._durable = 0        # batches known to be on disk
        self._flush = None       # the flush in progress

    async def connect(self):
        from .store import sqlite_path
        from .store_sqlite import SqliteStore
        self.s = SqliteStore(sqlite_path(self.url), gateway=True)
        self.ck = self.s.checkpointer()

    async def store(self, items):
        if self.ck.wants_reset:     # the WAL is long: let a checkpoint catch up first
            if await asyncio.get_running_loop().run_in_executor(
                    self.pool, self.s.finish_checkpoint):
                self.ck.wants_reset = False
        results = self.s.store(items)
        self._committed += 1
        return results, self._until_durable(self._committed)

    async def _until_durable(self, n):
        while self._durable < n:
            if self._flush is None:
                self._flush = asyncio.ensure_future(self._flush_wal(self._committed))
            await asyncio.shield(self._flush)

    async def _flush_wal(self, upto):
        try:
            await asyncio.get_running_loop().run_in_executor(self.pool, self.s.sync)
            self._durable = max(self._durable, upto)
        finally:
            self._flush = None

    async def nodes(self):
        return self.s.nodes()

    async def registry_version(self):
        """Changes whenever a node is added or revoked (nodes are never deleted)."""
        return self.s.db.execute(VERSION).fetchone()

    async def close(self):
        if self.ck is not None:
            self.ck.stop.set()
            self.ck.join(2)
        if self.s is not None:
            self.s.close()
        self.s = self.ck = None


class PgBackend:
    def __init__(self, url):
        self.url = url
        self.db = self.reader = None

    async def connect(self):
        import psycopg
        from .store_pg import PgStore
        PgStore(self.url).close()               # creates the tables if need be
        self.db = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                        connect_timeout=5)
        self.reader = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                            connect_timeout=5)

    async def store(self, items):
        from .store_pg import LOOKUP, STORE, batch_params, outcomes, recheck
        cur = await self.db.execute(STORE, batch_params(items, secrets.randbits(62) + 1))
        out, again = outcomes(await cur.fetchall())
        if again:
            sub = [items[j] for j in again]
            cur = await self.db.execute(LOOKUP, batch_params(sub, 0))
            out = recheck(out, again, [(again[i - 1] + 1, rc) for i, rc in await cur.fetchall()])
        return out, None

    async def registry_version(self):
        cur = await self.reader.execute(VERSION.replace("revoked", "revoked::int"))
        return await cur.fetchone()

    async def nodes(self):
        cur = await self.reader.execute("SELECT id, key_id, pk, name, revoked, high_water, "
                                        "added::text FROM nodes ORDER BY id")
        return [Node(r[0], bytes(r[1]), bytes(r[2]), r[3], r[4], to_counter(r[5]), r[6])
                for r in await cur.fetchall()]

    async def close(self):
        for c in (self.db, self.reader):
            if c is not None:
                try:
                    await c.close()
                except Exception:
                    pass
        self.db = self.reader = None
