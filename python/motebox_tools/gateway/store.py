# SPDX-License-Identifier: MIT
"""Storage of the gateway: the registry of nodes and the readings, in SQLite (a file
path or sqlite:///path, the default) or PostgreSQL (postgresql://...). `open_store(url)`
returns either; both have the same methods and the same two tables:

  nodes(id, key_id UNIQUE, pk, name, revoked, high_water, floor, added)
  readings(node, seq, reading, receipt, txn, PRIMARY KEY (node, seq))

Counters are 64-bit unsigned (1 .. 2^64-2) and SQL integers are signed: a counter c is
kept as seq = c - 2^63, which keeps the order, so the replay window is one comparison
(`seq >= floor`, floor = the lowest counter not too old, kept with the high water).
`txn` marks the transaction that stored a row: a row found after an INSERT .. ON
CONFLICT DO NOTHING whose txn is not ours was stored before (a duplicate).
"""
import os
import secrets
from dataclasses import dataclass

from .wire import KEY_ID, WINDOW

BIAS = 2**63
STORED, DUPLICATE, TOO_OLD = "stored", "duplicate", "too_old"


def to_seq(counter):
    return counter - BIAS


def to_counter(seq):
    return seq + BIAS


def floor_for(high_water):
    """The lowest counter still inside the window when `high_water` was stored."""
    return max(1, high_water - WINDOW + 1)


@dataclass
class Node:
    id: int
    key_id: bytes
    pk: bytes
    name: str
    revoked: bool
    high_water: int      # counter (unbiased); 0 = nothing stored yet
    added: str


class DuplicateKeyId(ValueError):
    """A second node whose public key starts with the same 8 bytes as a registered one."""


class Store:
    """What both back ends share: the registry operations in terms of `_nodes_rows`,
    and the bookkeeping of a batch (`store`)."""

    def new_txn(self):
        return secrets.randbits(62) + 1

    def find(self, selector):
        """The nodes matching a selector: a name, a key id (16 hex digits) or a public
        key (64 hex digits)."""
        out = []
        for n in self.nodes():
            if selector in (n.name, n.key_id.hex(), n.pk.hex()):
                out.append(n)
        return out

    @staticmethod
    def check_pk(pk):
        if len(pk) != 32:
            raise ValueError(f"a node public key is 32 bytes, not {len(pk)}")
        return bytes(pk), bytes(pk[:KEY_ID])

    @staticmethod
    def split_batch(items):
        """Per node: the highest counter of the batch (the window moves with it)."""
        top = {}
        for node, counter, _r, _rc in items:
            if counter > top.get(node, 0):
                top[node] = counter
        return top


def open_store(url):
    """SQLite for a path or sqlite:///path (created if missing), PostgreSQL for
    postgresql://... or postgres://..."""
    if url.startswith(("postgresql://", "postgres://")):
        from .store_pg import PgStore
        return PgStore(url)
    from .store_sqlite import SqliteStore
    return SqliteStore(sqlite_path(url))


def sqlite_path(url):
    """The file of a SQLite URL: a path, or sqlite:///abs/path, sqlite://rel/path."""
    if url.startswith("sqlite://"):
        url = url[len("sqlite://"):]
    return os.path.expanduser(url)
