# SPDX-License-Identifier: MIT
# The gateway (`motebox serve`, docs/PROTOCOL.md, issue #17): a Python package over the
# host library; its tests (tests/test_gateway*.py) start a throwaway PostgreSQL server,
# hence the postgresql package. `make bench` runs bench-gateway: throughput and latency
# on SQLite and PostgreSQL, 100 kill -9 restarts, 1,000,000 replays, database restarts
# and a lossy link (about 5 minutes) -> bench/results/gateway.json.

APT_PACKAGES += postgresql

.PHONY: bench-gateway
bench-gateway: host
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.gateway.bench
BENCH_STEPS += bench-gateway
