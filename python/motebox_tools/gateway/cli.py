# SPDX-License-Identifier: MIT
"""`motebox serve`, `motebox nodes` and `motebox loadgen` (docs/PROTOCOL.md, "Server")."""
import argparse
import asyncio
import json
import signal
import sys

DEFAULT_DB = "motebox.db"
DB_HELP = ("database: a SQLite file (default %(default)s, created if missing) or "
           "postgresql://user@host/dbname")


def _lib():
    import motebox
    return motebox.lib()


def _hostport(text, default_port=5683):
    """(host, port) of "host:port", "[v6 address]:port", "host" or ":port"."""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    return host or "127.0.0.1", int(port) if port else default_port


def _public_key(text, what):
    """A public key from a key file or 64 hex digits."""
    import os
    from motebox import keyfile
    if len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text) \
            and not os.path.exists(text):
        return bytes.fromhex(text)
    return keyfile.read_key(text, "public", what)


# --- motebox serve -----------------------------------------------------------------
def serve_main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox serve", description=(
        "The gateway: receive node messages over CoAP (POST /r) or UDP, open them, store "
        "each reading once and answer with its receipt after it is committed."))
    ap.add_argument("--key", required=True, help="the server's X25519 secret key file")
    ap.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    ap.add_argument("--listen", default="127.0.0.1:5683", help="address:port (default %(default)s)")
    ap.add_argument("--transport", choices=("coap", "udp"), default="coap",
                    help="CoAP (default) or bare UDP datagrams")
    ap.add_argument("--commit-ms", type=float, default=1.0,
                    help="group commit: gather readings this long per transaction (default %(default)s)")
    ap.add_argument("--duration", type=float, help="stop after this many seconds")
    ap.add_argument("--stats", action="store_true", help="print the counters every second")
    args = ap.parse_args(argv)
    from motebox import keyfile
    from motebox.errors import MoteboxError
    from .server import Gateway
    try:
        sk = keyfile.read_key(args.key, "secret", "server secret key")
        host, port = _hostport(args.listen)
        gw = Gateway(args.db, sk, _lib(), host=host, port=port, transport=args.transport,
                     commit_ms=args.commit_ms)
    except (MoteboxError, ValueError) as e:
        print(f"motebox serve: {e}", file=sys.stderr)
        return 2

    async def main():
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        if args.duration:
            loop.call_later(args.duration, stop.set)
        if args.stats:
            async def report():
                while not stop.is_set():
                    await asyncio.sleep(1)
                    print(json.dumps(gw.stats()), file=sys.stderr, flush=True)
            asyncio.ensure_future(report())
        await gw.serve(stop)
    try:
        asyncio.run(main())
    except OSError as e:
        print(f"motebox serve: {e}", file=sys.stderr)
        return 1
    print(json.dumps({"gateway": gw.stats()}), flush=True)
    return 0


# --- motebox nodes -------------------------------------------------------------------
def nodes_main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox nodes",
                                 description="The gateway's registry of node public keys.")
    ap.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    sub = ap.add_subparsers(dest="cmd", required=True)
    add = sub.add_parser("add", help="register a node's public key")
    add.add_argument("pubkey", help="public key file or 64 hex digits")
    add.add_argument("--name", help="a name for the node")
    sub.add_parser("list", help="list the registered nodes")
    rev = sub.add_parser("revoke", help="revoke a node: its messages are dropped from now on")
    rev.add_argument("node", help="name, key id (16 hex digits) or public key (64 hex digits)")
    args = ap.parse_args(argv)
    from motebox.errors import MoteboxError
    from .store import open_store
    try:
        store = open_store(args.db)
    except Exception as e:
        print(f"motebox nodes: {args.db}: {e}", file=sys.stderr)
        return 1
    try:
        if args.cmd == "add":
            pk = _public_key(args.pubkey, "node public key")
            node_id = store.add_node(pk, args.name)
            print(f"node {node_id}: key id {pk[:8].hex()}"
                  + (f" ({args.name})" if args.name else ""))
        elif args.cmd == "list":
            print(f"{'id':>5}  {'key id':16}  {'high water':>10}  {'state':7}  {'added':25}  name")
            for n in store.nodes():
                print(f"{n.id:>5}  {n.key_id.hex():16}  {n.high_water:>10}  "
                      f"{'revoked' if n.revoked else 'active':7}  {n.added:25}  {n.name or ''}")
        else:
            found = store.find(args.node)
            if len(found) != 1:
                print(f"motebox nodes: {args.node!r} matches {len(found)} nodes", file=sys.stderr)
                return 1
            store.revoke([found[0].id])
            print(f"node {found[0].id} ({found[0].key_id.hex()}) revoked")
    except (MoteboxError, ValueError) as e:
        print(f"motebox nodes: {e}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


# --- motebox loadgen -----------------------------------------------------------------
def loadgen_main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox loadgen", description=(
        "Host nodes streaming readings to a gateway on loopback, bounded in count and "
        "time; prints readings/s and the latency to the receipt (JSON)."))
    ap.add_argument("--server", default="127.0.0.1:5683", help="gateway address (loopback only)")
    ap.add_argument("--server-pk", required=True, help="server public key file or 64 hex digits")
    ap.add_argument("--db", help="register the generated nodes in this database first "
                                 "(the gateway's --db); without it they must be registered")
    ap.add_argument("--nodes", type=int, default=100)
    ap.add_argument("--rate", type=float, default=1000, help="readings per second, all nodes")
    ap.add_argument("--count", type=int, default=10_000, help="readings to send at most")
    ap.add_argument("--duration", type=float, default=10.0, help="seconds of sending at most")
    ap.add_argument("--size", type=int, default=64, help="bytes per reading (12..1024)")
    ap.add_argument("--rto-ms", type=float, default=200, help="retransmission timeout")
    ap.add_argument("--transport", choices=("coap", "udp"), default="coap")
    ap.add_argument("--non", action="store_true", help="CoAP NON requests (default CON)")
    ap.add_argument("--replays", type=int, default=0, help="replay attempts after the run")
    ap.add_argument("--c-nodes", action="store_true",
                    help="nodes through the library's C node API (mb_node_*: counters "
                         "reserved ahead in NVM), sealing as they go")
    args = ap.parse_args(argv)
    from motebox.errors import MoteboxError
    from . import loadgen
    if not 12 <= args.size <= 1024 or args.nodes < 1:
        ap.error("--size is 12..1024 and --nodes at least 1")
    try:
        lib = _lib()
        server_pk = _public_key(args.server_pk, "server public key")
        nodes = loadgen.make_nodes(lib, server_pk, args.nodes)
        if args.db:
            from .store import open_store
            store = open_store(args.db)
            loadgen.register(store, nodes)
            store.close()
        host, port = _hostport(args.server)
        gen = loadgen.LoadGen(lib, nodes, host, port, rate=args.rate, count=args.count,
                              duration=args.duration, size=args.size, rto=args.rto_ms / 1000,
                              transport=args.transport, confirmable=not args.non,
                              c_nodes=args.c_nodes)
        result = gen.run()
        if args.replays:
            result.update(gen.replay(args.replays, rate=args.rate))
        gen.close()
    except (MoteboxError, ValueError, OSError) as e:
        print(f"motebox loadgen: {e}", file=sys.stderr)
        return 1
    result.update(nodes=args.nodes, rate=args.rate)
    print(json.dumps(result))
    return 0 if result["unacked"] == 0 else 1
