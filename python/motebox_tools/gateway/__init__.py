# SPDX-License-Identifier: MIT
"""`motebox serve`: the gateway between nodes and a database (docs/PROTOCOL.md, issue #17).

wire          the protocol v1 bytes (uplink, receipt, nonces) over the motebox binding
coap          the small CoAP subset the gateway speaks (RFC 7252)
store         storage API and `open_store(url)`: store_sqlite (default), store_pg
backend       the storage as the event loop awaits it (durability without blocking)
server        the asyncio UDP server: open, check, group-commit, then answer
loadgen       host nodes streaming readings to a gateway on loopback, and their check
cli           `motebox serve`, `motebox nodes`, `motebox loadgen`
harness       a gateway in a thread or as a child process (tests, bench, demo)
lossy         a UDP relay that drops and duplicates datagrams (fault runs)
pgtmp         a throwaway PostgreSQL server in a directory (tests, bench)
bench         `make bench-gateway` -> bench/results/gateway.json
"""
