# SPDX-License-Identifier: MIT
"""The host "board": the demo's sensor node on the host library (build/host/libmotebox.so
through the motebox binding), making the same calls as the firmware. No firmware, no
simulator; its benchmarks are C programs (bench/host_bench*.c, mk/host.mk)."""
import os

import motebox

from ..node_io import check_args

TITLE = "the host library (motebox binding)"
VARIANTS = {"default": "the default build of the binding (motebox.default_lib_path())"}
CHUNK = 64      # as demo/node.c


def run_node(server_pk, node_sk, readings, variant=None):
    """The node's calls on the host library; returns what it sent (as the firmware nodes)."""
    check_args(server_pk, node_sk)
    lib = motebox.lib()
    node_pk = lib.x25519_base(node_sk)
    k = lib.box_beforenm(server_pk, node_sk)
    nonce = os.urandom(24)
    stream = lib.stream(k, nonce)
    ct = b"".join(stream.update(readings[i:i + CHUNK]) for i in range(0, len(readings), CHUNK))
    return {"node_pk": node_pk, "nonce": nonce, "ciphertext": ct, "tag": stream.final(),
            "cycles": None, "where": f"host library ({lib.path})"}
