# SPDX-License-Identifier: MIT
"""PostgreSQL storage (`--db postgresql://...`, psycopg 3). Any number of gateway
processes may share one database. A batch is ONE statement, hence one transaction and
one round trip (autocommit): it locks its nodes' rows in id order (so two gateways never
deadlock, and the window it reads is the latest committed one), inserts every reading
with INSERT .. ON CONFLICT DO NOTHING on the unique (node, seq), advances the nodes'
windows, and returns per reading: stored / duplicate (with the stored receipt) / too
old. The statement returns after its commit is flushed (synchronous_commit on), and only
then are the receipts sent."""
import psycopg

from .store import (BIAS, DUPLICATE, STORED, TOO_OLD, DuplicateKeyId, Node, Store,
                    to_counter, to_seq)
from .wire import WINDOW

SCHEMA = """
CREATE TABLE IF NOT EXISTS nodes(
    id SERIAL PRIMARY KEY,
    key_id BYTEA NOT NULL UNIQUE,
    pk BYTEA NOT NULL,
    name TEXT,
    revoked BOOLEAN NOT NULL DEFAULT false,
    high_water BIGINT NOT NULL,        -- highest stored counter - 2^63
    floor BIGINT NOT NULL,             -- lowest counter inside the window - 2^63
    added TIMESTAMPTZ NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS readings(
    node INTEGER NOT NULL,             -- nodes(id); nodes are revoked, never deleted
    seq BIGINT NOT NULL,               -- counter - 2^63
    reading BYTEA NOT NULL,
    receipt BYTEA NOT NULL,
    txn BIGINT NOT NULL,
    PRIMARY KEY (node, seq));
"""
# floor after storing seq: max(counter 1, counter - WINDOW + 1), without overflowing
STORE = f"""
WITH v AS (
    SELECT * FROM unnest(%(node)s::int4[], %(seq)s::int8[], %(reading)s::bytea[],
                         %(receipt)s::bytea[]) WITH ORDINALITY AS v(node, seq, reading, receipt, i)),
locked AS (   -- FOR UPDATE returns the latest committed floor once the lock is held
    SELECT id, floor FROM nodes WHERE id = ANY(%(nodes)s::int4[]) ORDER BY id FOR UPDATE),
ins AS (
    INSERT INTO readings(node, seq, reading, receipt, txn)
    SELECT v.node, v.seq, v.reading, v.receipt, %(txn)s FROM v JOIN locked l ON l.id = v.node
    WHERE v.seq >= l.floor ORDER BY v.node, v.seq
    ON CONFLICT DO NOTHING RETURNING node, seq),
top AS (SELECT node, max(seq) AS seq FROM ins GROUP BY node),
adv AS (
    UPDATE nodes SET high_water = greatest(high_water, top.seq),
                     floor = greatest(floor, greatest(top.seq, {-BIAS + WINDOW}) - {WINDOW - 1})
    FROM top WHERE nodes.id = top.node)
SELECT ins.node IS NOT NULL,
       CASE WHEN ins.node IS NULL THEN   -- not inserted: stored before (duplicate) or too old
           (SELECT r.receipt FROM readings r WHERE r.node = v.node AND r.seq = v.seq) END
    FROM v LEFT JOIN ins ON ins.node = v.node AND ins.seq = v.seq
    ORDER BY v.i
"""
# A row another gateway committed while this statement waited for the locks is not in the
# statement's snapshot: a reading that was not inserted and found nowhere is looked up
# again before it is called too old.
LOOKUP = """
SELECT v.i, r.receipt FROM unnest(%(node)s::int4[], %(seq)s::int8[]) WITH ORDINALITY AS v(node, seq, i)
    JOIN readings r ON r.node = v.node AND r.seq = v.seq
"""


def batch_params(items, txn):
    node = [i[0] for i in items]
    return {"node": node, "seq": [i[1] - BIAS for i in items],
            "reading": [i[2] for i in items], "receipt": [i[3] for i in items],
            "nodes": sorted(set(node)), "txn": txn}


def outcomes(rows):
    """Per reading (STORED, None) / (DUPLICATE, receipt) / (TOO_OLD, None), and the
    indexes of the too-old ones (to look up again)."""
    out = [(STORED, None) if new else (DUPLICATE, bytes(rc)) if rc is not None
           else (TOO_OLD, None) for new, rc in rows]
    return out, [j for j, o in enumerate(out) if o[0] == TOO_OLD]


def recheck(out, again, found):
    """Fold the second look (rows (1-based index, receipt)) into the outcomes."""
    for i, rc in found:
        out[i - 1] = (DUPLICATE, bytes(rc))
    return out


class PgStore(Store):
    kind = "postgresql"

    def __init__(self, url):
        self.url = url
        self.db = None
        self.connect()

    def connect(self):
        if self.db is not None:
            try:
                self.db.close()
            except psycopg.Error:
                pass
        self.db = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        with self.db.transaction():
            # one creator at a time: CREATE TABLE IF NOT EXISTS races between processes
            self.db.execute("SELECT pg_advisory_xact_lock(727171)")
            self.db.execute(SCHEMA)

    reconnect = connect

    def close(self):
        self.db.close()

    # --- registry -------------------------------------------------------------------
    def add_node(self, pk, name=None):
        pk, kid = self.check_pk(pk)
        try:
            with self.db.transaction():
                return self.db.execute(
                    "INSERT INTO nodes(key_id, pk, name, high_water, floor) VALUES (%s,%s,%s,%s,%s) "
                    "RETURNING id", (kid, pk, name, to_seq(0), to_seq(1))).fetchone()[0]
        except psycopg.errors.UniqueViolation:
            raise DuplicateKeyId(f"a node with key id {kid.hex()} is already registered") from None

    def nodes(self):
        rows = self.db.execute("SELECT id, key_id, pk, name, revoked, high_water, "
                               "to_char(added AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS+00:00') "
                               "FROM nodes ORDER BY id").fetchall()
        return [Node(r[0], bytes(r[1]), bytes(r[2]), r[3], r[4], to_counter(r[5]), r[6])
                for r in rows]

    def revoke(self, ids):
        with self.db.transaction():
            return self.db.execute("UPDATE nodes SET revoked = true WHERE id = ANY(%s::int4[])",
                                   (list(ids),)).rowcount

    # --- readings -------------------------------------------------------------------
    def store(self, items):
        """As SqliteStore.store; psycopg.OperationalError if the server is gone (the
        caller reconnects and stores the same batch again: rows that did commit come
        back as duplicates with their receipts)."""
        params = batch_params(items, self.new_txn())
        out, again = outcomes(self.db.execute(STORE, params).fetchall())
        if again:
            sub = [items[j] for j in again]
            found = self.db.execute(LOOKUP, batch_params(sub, 0)).fetchall()
            out = recheck(out, again, [(again[i - 1] + 1, rc) for i, rc in found])
        return out

    def readings(self, node=None):
        q = "SELECT node, seq, reading, receipt FROM readings"
        args = ()
        if node is not None:
            q, args = q + " WHERE node = %s", (node,)
        return [(n, to_counter(s), bytes(r), bytes(rc))
                for n, s, r, rc in self.db.execute(q + " ORDER BY node, seq", args)]

    def count(self):
        return self.db.execute("SELECT count(*) FROM readings").fetchone()[0]
