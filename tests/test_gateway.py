# SPDX-License-Identifier: MIT
"""`motebox serve` end to end, on SQLite and on a real PostgreSQL server started in a
temporary directory: each reading stored once and acknowledged only once stored, the
stored receipt for duplicates, replays and bad inputs counted and dropped, a lossy link,
kill -9 of the gateway and a database restart under load, two gateways on one database,
and the `motebox nodes` registry. Nodes are the spec's (PyNaCl, tests/gateway_support.py)
or the load generator's."""
import asyncio
import json
import random
import socket
import threading
import time

import aiocoap
import nacl.bindings
import pytest

from conftest import BUILD
from gateway_support import Client, SpecNode, coap_decode, coap_post
import motebox
from motebox import keyfile
from motebox_tools.gateway import cli, loadgen, pgtmp
from motebox_tools.gateway.harness import GatewayProcess, GatewayThread
from motebox_tools.gateway.lossy import LossyLink
from motebox_tools.gateway.store import open_store


@pytest.fixture(scope="module")
def lib():
    return motebox.Library(BUILD / "host" / "libmotebox.so")


@pytest.fixture(scope="module")
def server_keys():
    return nacl.bindings.crypto_box_keypair()


@pytest.fixture(scope="module")
def postgres():
    if not pgtmp.available():
        pytest.skip("PostgreSQL (initdb, pg_ctl) is not installed")
    with pgtmp.TempPostgres(fsync=False) as pg:
        yield pg


_dbs = iter(range(10**6))


def _pg_database(pg):
    import psycopg
    name = f"gw{next(_dbs)}"
    with psycopg.connect(pg.url, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    return pg.url.replace("postgresql:///postgres?", f"postgresql:///{name}?")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "gw.db")
    return _pg_database(request.getfixturevalue("postgres"))


def _register(url, *nodes):
    store = open_store(url)
    ids = [store.add_node(n.pk, f"n{i}") for i, n in enumerate(nodes)]
    store.close()
    return ids


def _rows(url):
    store = open_store(url)
    try:
        return store.readings()
    finally:
        store.close()


def test_stored_once_receipt_after_commit_duplicate_gets_stored_receipt(lib, server_keys, db_url):
    pk, sk = server_keys
    node = SpecNode(pk)
    _register(db_url, node)
    with GatewayThread(db_url, sk, lib) as gw:
        c = Client(gw.port)
        req = coap_post(node.uplink(1, b"t=21.5C"), token=b"\x07\x08")
        first = coap_decode(c.ask(req))
        assert (first.mtype, first.code, first.token) == (aiocoap.ACK, aiocoap.CHANGED, b"\x07\x08")
        assert first.mid == coap_decode(req).mid                 # piggybacked ACK
        assert node.open_receipt(1, first.payload) == bytes(32)   # status 0: stored
        rows = _rows(db_url)                                     # stored before the receipt
        assert [(r[1], r[2], r[3]) for r in rows] == [(1, b"t=21.5C", first.payload)]
        again = coap_decode(c.ask(coap_post(node.uplink(1, b"t=21.5C"), confirmable=False)))
        assert again.mtype == aiocoap.NON and again.payload == first.payload
        assert len(_rows(db_url)) == 1
        st = gw.stats()
        assert (st["stored"], st["duplicate"]) == (1, 1)
        c.close()


def test_bad_inputs_are_counted_and_dropped(lib, server_keys, tmp_path):
    url = str(tmp_path / "gw.db")
    pk, sk = server_keys
    node, revoked, stranger = SpecNode(pk), SpecNode(pk), SpecNode(pk)
    _ids = _register(url, node, revoked)
    store = open_store(url)
    store.revoke([_ids[1]])
    store.close()
    good = node.uplink(5, b"x" * 64)
    tampered = bytearray(good)
    tampered[50] ^= 1
    impostor = SpecNode(pk).uplink(6, b"x" * 64, kid=node.kid)    # right key id, wrong key
    cases = [
        (coap_post(good[:33]), "malformed"),                       # truncated: no ciphertext
        (coap_post(node.uplink(7, bytes(1025))), "malformed"),     # longer than MAX_READING
        (coap_post(b"\x13" + good[1:]), "malformed"),              # wrong type byte
        (coap_post(node.uplink(0, b"zero")), "malformed"),         # counter 0
        (b"\x00garbage that is not CoAP", "malformed"),
        (coap_post(random.Random(1).randbytes(97)), "malformed"),
        (coap_post(stranger.uplink(1, b"hi")), "unknown_sender"),
        (coap_post(revoked.uplink(1, b"hi")), "unknown_sender"),
        (coap_post(bytes(tampered)), "bad_tag"),
        (coap_post(impostor), "bad_tag"),
    ]
    with GatewayThread(url, sk, lib) as gw:
        c = Client(gw.port)
        before = gw.stats()
        for data, _ in cases:
            c.send(data)
        probe = coap_decode(c.ask(coap_post(good)))      # answered after all of the above
        assert node.open_receipt(5, probe.payload) == bytes(32)
        c.s.settimeout(0.2)
        with pytest.raises(socket.timeout):             # nothing else was answered
            c.s.recv(4096)
        st = gw.stats()
        for reason in ("malformed", "unknown_sender", "bad_tag"):
            want = sum(r == reason for _, r in cases)
            assert st[reason] - before[reason] == want, reason
        assert st["stored"] == 1
        c.close()
    assert [r[1] for r in _rows(url)] == [5]


def test_nodes_added_and_revoked_while_serving(lib, server_keys, db_url):
    pk, sk = server_keys
    node = SpecNode(pk)
    with GatewayThread(db_url, sk, lib, reload_s=0.2) as gw:
        c = Client(gw.port)
        assert c.ask(coap_post(node.uplink(1, b"early")), timeout=0.3) is None   # unknown
        node_id = _register(db_url, node)[0]
        # the node retransmits until the gateway has read the registry again
        answers = [c.ask(coap_post(node.uplink(1, b"early")), timeout=0.5) for _ in range(4)]
        assert any(answers)
        store = open_store(db_url)
        store.revoke([node_id])
        store.close()
        end = time.monotonic() + 10           # the next registry read sees the revocation
        while not gw.nodes[node.kid].revoked and time.monotonic() < end:
            time.sleep(0.05)
        assert c.ask(coap_post(node.uplink(2, b"late")), timeout=0.5) is None
        assert gw.stats()["unknown_sender"] >= 2
        c.close()
    assert [r[1] for r in _rows(db_url)] == [1]


def test_replay_window(lib, server_keys, db_url):
    pk, sk = server_keys
    node = SpecNode(pk)
    _register(db_url, node)
    with GatewayThread(db_url, sk, lib) as gw:
        c = Client(gw.port)
        first = c.ask(coap_post(node.uplink(5, b"old")))
        assert c.ask(coap_post(node.uplink(2000, b"new"))) is not None
        assert c.ask(coap_post(node.uplink(976, b"too old")), timeout=0.5) is None
        assert c.ask(coap_post(node.uplink(977, b"in window"))) is not None
        # a copy of a stored reading below the window still gets its stored receipt
        assert coap_decode(c.ask(coap_post(node.uplink(5, b"old")))).payload == \
            coap_decode(first).payload
        assert gw.stats()["too_old"] == 1
        c.close()
    assert [r[1] for r in _rows(db_url)] == [5, 977, 2000]


def test_replays_are_never_stored(lib, server_keys, db_url):
    pk, sk = server_keys
    nodes = loadgen.make_nodes(lib, pk, 40, seed=b"replay")
    store = open_store(db_url)
    loadgen.register(store, nodes)
    with GatewayThread(db_url, sk, lib) as gw:
        gen = loadgen.LoadGen(lib, nodes, port=gw.port, rate=4000, count=2000, duration=10)
        run = gen.run()
        assert run["acked"] == 2000 and run["unacked"] == 0
        before = gw.stats()
        stored = before["stored"]
        rep = gen.replay(3000, rate=6000)
        gen.close()
        st = gw.stats()
    assert rep["replays_tried"] == 3000
    assert st["stored"] == stored == 2000              # 0 replays accepted
    # identical copies (a third, and re-addressed ones that drew the same node) are
    # answered with the stored receipt; the others fail the tag
    assert st["bad_tag"] >= 1900 and rep["answers"] == st["duplicate"] - before["duplicate"]
    assert st["bad_tag"] + rep["answers"] == 3000
    assert store.count() == 2000
    assert loadgen.check_store(store, nodes) == (0, 0)
    store.close()


def test_load_generator_with_c_nodes(lib, server_keys, tmp_path):
    url = str(tmp_path / "gw.db")
    pk, sk = server_keys
    nodes = loadgen.make_nodes(lib, pk, 20)
    store = open_store(url)
    loadgen.register(store, nodes)
    with GatewayThread(url, sk, lib) as gw:
        gen = loadgen.LoadGen(lib, nodes, port=gw.port, rate=2000, count=600, duration=10,
                              c_nodes=True)
        run = gen.run()
        rep = gen.replay(300, rate=3000)      # the wire module's copies of C nodes' bytes
        gen.close()
        st = gw.stats()
    assert run["acked"] == 600 and run["bad_receipts"] == 0
    assert st["stored"] == 600 and rep["answers"] >= 100
    assert loadgen.check_store(store, nodes) == (0, 0) and store.count() == 600
    store.close()


def test_aiocoap_client_gets_the_receipt(lib, server_keys, tmp_path):
    url = str(tmp_path / "gw.db")
    pk, sk = server_keys
    node = SpecNode(pk)
    _register(url, node)

    async def client(port):
        ctx = await aiocoap.Context.create_client_context()
        try:
            req = aiocoap.Message(code=aiocoap.POST, uri=f"coap://127.0.0.1:{port}/r",
                                  payload=node.uplink(3, b"via aiocoap"))
            resp = await asyncio.wait_for(ctx.request(req).response, 10)
            stats = await asyncio.wait_for(ctx.request(aiocoap.Message(
                code=aiocoap.GET, uri=f"coap://127.0.0.1:{port}/stats")).response, 10)
        finally:
            await ctx.shutdown()
        return resp, stats
    with GatewayThread(url, sk, lib) as gw:
        resp, stats = asyncio.run(client(gw.port))
    assert resp.code == aiocoap.CHANGED and node.open_receipt(3, resp.payload) == bytes(32)
    assert stats.code == aiocoap.CONTENT and json.loads(stats.payload)["stored"] == 1


def test_lossy_link_loses_nothing_stores_nothing_twice(lib, server_keys, tmp_path):
    url = str(tmp_path / "gw.db")
    pk, sk = server_keys
    nodes = loadgen.make_nodes(lib, pk, 30)
    store = open_store(url)
    loadgen.register(store, nodes)
    with GatewayThread(url, sk, lib) as gw:
        link = LossyLink(gw.port)
        gen = loadgen.LoadGen(lib, nodes, port=link.port, rate=1500, count=1500,
                              duration=10, rto=0.05, drain=20)
        run = gen.run()
        gen.close()
        link.close()
        st = gw.stats()
    assert run["acked"] == 1500 and run["retransmissions"] > 0
    assert st["duplicate"] > 0 and st["stored"] == 1500
    assert loadgen.check_store(store, nodes) == (0, 0)
    store.close()


def _kill_loop(proc, times, every, restarted):
    for _ in range(times):
        time.sleep(every)
        proc.kill()
        proc.start()
        restarted.append(1)


def test_kill9_under_load_loses_nothing(lib, server_keys, tmp_path):
    url = str(tmp_path / "gw.db")
    pk, sk = server_keys
    key = tmp_path / "server.sk"
    keyfile.write_key(key, sk, "secret")
    nodes = loadgen.make_nodes(lib, pk, 50)
    store = open_store(url)
    loadgen.register(store, nodes)
    port = pgtmp._free_port()
    gw = GatewayProcess(url, key, port, env={"MOTEBOX_BUILD": str(BUILD)}).start()
    restarted = []
    killer = threading.Thread(target=_kill_loop, args=(gw, 3, 0.8, restarted))
    gen = loadgen.LoadGen(lib, nodes, port=port, rate=2000, count=5000, duration=15,
                          rto=0.1, drain=20)
    gen.prepare()
    killer.start()
    run = gen.run()
    killer.join()
    if run["unacked"]:
        run = gen.run()        # the last restart may come after the sending ended
    gen.close()
    gw.stop()
    assert len(restarted) == 3
    assert run["unacked"] == 0
    acked = sum(len(n.acked) for n in nodes)
    assert acked == 5000
    assert loadgen.check_store(store, nodes) == (0, 0)
    assert store.count() == 5000
    store.close()


def test_two_gateways_share_one_postgres(lib, server_keys, postgres):
    url = _pg_database(postgres)
    pk, sk = server_keys
    node = SpecNode(pk)
    _register(url, node)
    with GatewayThread(url, sk, lib) as a, GatewayThread(url, sk, lib) as b:
        ca, cb = Client(a.port), Client(b.port)
        receipts = set()
        for counter in range(1, 41):
            msg = coap_post(node.uplink(counter, counter.to_bytes(4, "big")))
            ca.send(msg)
            cb.send(msg)
            for c in (ca, cb):
                receipts.add((counter, coap_decode(c.s.recv(4096)).payload))
        ca.close()
        cb.close()
        sa, sb = a.stats(), b.stats()
    assert len(receipts) == 40          # both gateways answered each with the same receipt
    assert sa["stored"] + sb["stored"] == 40 and sa["duplicate"] + sb["duplicate"] == 40
    assert [r[1] for r in _rows(url)] == list(range(1, 41))


def test_postgres_restart_under_load(lib, server_keys, postgres):
    url = _pg_database(postgres)
    pk, sk = server_keys
    nodes = loadgen.make_nodes(lib, pk, 40)
    store = open_store(url)
    loadgen.register(store, nodes)
    store.close()
    with GatewayThread(url, sk, lib) as gw:
        gen = loadgen.LoadGen(lib, nodes, port=gw.port, rate=1500, count=3000, duration=10,
                              rto=0.1, drain=20)
        gen.prepare()
        restarter = threading.Timer(0.6, postgres.restart, kwargs={"mode": "fast"})
        restarter.start()
        run = gen.run()
        restarter.join()
        gen.close()
        st = gw.stats()
    assert run["acked"] == 3000 and run["unacked"] == 0
    assert st["db_errors"] >= 1                  # the restart happened under load
    store = open_store(url)
    assert loadgen.check_store(store, nodes) == (0, 0)
    assert store.count() == 3000
    store.close()


def test_nodes_registry_cli(tmp_path, capsys, lib):
    url = str(tmp_path / "reg.db")
    sk = bytes(range(32))
    pk = lib.x25519_base(sk)
    keyfile.write_key(tmp_path / "a.pk", pk, "public")
    keyfile.write_key(tmp_path / "a.sk", sk, "secret")
    assert cli.nodes_main(["--db", url, "add", str(tmp_path / "a.pk"), "--name", "kitchen"]) == 0
    assert cli.nodes_main(["--db", url, "add", str(tmp_path / "a.sk")]) == 1   # a secret key
    other = lib.x25519_base(bytes(31) + b"\x01")
    assert cli.nodes_main(["--db", url, "add", other.hex()]) == 0
    same_prefix = pk[:8] + bytes(24)
    assert cli.nodes_main(["--db", url, "add", same_prefix.hex()]) == 1    # key id taken
    assert cli.nodes_main(["--db", url, "revoke", "kitchen"]) == 0
    capsys.readouterr()
    assert cli.nodes_main(["--db", url, "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and "revoked" in out[1] and "kitchen" in out[1]
    assert pk[:8].hex() in out[1] and "active" in out[2]


def test_store_batches_exactly_once_and_window(db_url):
    store = open_store(db_url)
    a = store.add_node(bytes(range(32)), "a")
    b = store.add_node(bytes(range(1, 33)), "b")
    with pytest.raises(ValueError):
        store.add_node(bytes(range(8)) + bytes(24))           # same key id as a
    assert store.store([(a, 5, b"r5", b"rc5"), (b, 5, b"b5", b"bc5")]) == [("stored", None)] * 2
    assert store.store([(a, 5, b"again", b"other"), (a, 2**64 - 2, b"top", b"rct")]) == \
        [("duplicate", b"rc5"), ("stored", None)]
    # the window moved to 2^64-2 - 1023 for a only
    assert store.store([(a, 6, b"x", b"y"), (a, 2**64 - 1025, b"x", b"y"),
                        (a, 2**64 - 1026, b"x", b"y"), (b, 6, b"b6", b"bc6")]) == \
        [("too_old", None), ("stored", None), ("too_old", None), ("stored", None)]
    assert store.store([(a, 5, b"", b"")]) == [("duplicate", b"rc5")]   # old but stored
    assert [(r[0], r[1], r[2]) for r in store.readings()] == \
        [(a, 5, b"r5"), (a, 2**64 - 1025, b"x"), (a, 2**64 - 2, b"top"), (b, 5, b"b5"),
         (b, 6, b"b6")]
    assert {n.name: n.high_water for n in store.nodes()} == {"a": 2**64 - 2, "b": 6}
    store.close()


def test_sqlite_wal_starts_again_under_constant_writing(tmp_path):
    """The gateway's checkpointing (store_sqlite.checkpointer / finish_checkpoint): the
    background thread asks for a reset once the WAL's live part passes the reset size;
    the checkpoint run between two batches copies every frame, so the next batches
    write the WAL from its start again (the file does not grow), and every reading
    stays stored."""
    import os
    from motebox_tools.gateway.store_sqlite import SqliteStore
    path = str(tmp_path / "wal.db")
    store = SqliteStore(path, gateway=True)
    node = store.add_node(bytes(range(32)), "a")
    counter = 0

    def batches(n):
        nonlocal counter
        for _ in range(n):
            batch = [(node, counter + j + 1, bytes(600), bytes(65)) for j in range(20)]
            counter += 20
            assert store.store(batch) == [("stored", None)] * 20

    try:
        batches(50)                              # ~0.7 MB of rows, no checkpoint yet
        size = os.path.getsize(path + "-wal")
        assert store.finish_checkpoint()
        batches(50)                              # written from the start: about
        again = os.path.getsize(path + "-wal")   # the same size, not twice it
        assert again < size * 5 // 4
        batches(50)                              # without a reset it grows by as much
        assert os.path.getsize(path + "-wal") > again + size // 2
        ck = store.checkpointer(interval=0.01, reset_bytes=64 << 10)
        try:
            deadline = time.monotonic() + 30
            while not ck.wants_reset and time.monotonic() < deadline:
                batches(1)
            assert ck.wants_reset
        finally:
            ck.stop.set()
            ck.join(5)
        assert store.count() == counter
    finally:
        store.close()
