# SPDX-License-Identifier: MIT
"""Shared body of tests/msp430/test_power_cut.py and tests/m4/test_power_cut.py: the
protocol node firmware on a simulated chip, its datagrams and receipts checked with
libsodium (PyNaCl), and power cuts (motebox_tools.powercut) that must never make it use a
counter twice."""
import nacl.bindings as nb

from motebox_tools import powercut, protonode


def nonce(direction, c):
    return b"mbx1" + bytes([direction]) + bytes(11) + c.to_bytes(8, "big")


def receipt(server_sk, node_pk, c, status=0, command=bytes(31)):
    return (b"\x12" + node_pk[:8] + c.to_bytes(8, "big")
            + nb.crypto_box_easy(bytes([status]) + command, nonce(2, c), node_pk, server_sk))


def check_firmware_node(board):
    """Keys mode: the node derives its key; its datagrams open with libsodium, it takes the
    receipt for its pending counter only, and a second run from its NVM goes on from there."""
    server_pk, server_sk = nb.crypto_box_keypair()
    node_pk, node_sk = nb.crypto_box_keypair()
    readings = [bytes([i]) * 64 for i in range(3)] + [bytes(300)]   # 300: the stream path
    # The datagrams are deterministic (counters from the NVM): the receipts for counters
    # 2 and 4 (readings 1 and 3) are made in advance; 99 never fits, the one for 1 is forged.
    cmd = b"interval=60".ljust(31, b"\0")
    receipts = [receipt(server_sk, node_pk, 2, 0, cmd), receipt(server_sk, node_pk, 99),
                receipt(server_sk, node_pk, 1)[:-1] + b"\0", receipt(server_sk, node_pk, 4)]
    r = protonode.run(board, None, server_pk, node_sk, None, readings, receipts)
    assert len(r["messages"]) == 4
    for i, (m, reading) in enumerate(zip(r["messages"], readings)):
        assert m[0] == 0x11 and m[1:9] == node_pk[:8] and int.from_bytes(m[9:17], "big") == i + 1
        assert nb.crypto_box_open_easy(m[17:], nonce(1, i + 1), node_pk, server_sk) == reading
    # after reading 1 (pending 2) receipt 0 opens; after reading 3 (pending 4) receipt 3
    assert [(a["index"], a["counter"], a["status"], a["command"]) for a in r["accepted"]] == \
        [(0, 2, 0, cmd), (3, 4, 0, bytes(31))]
    assert [x["index"] for x in r["rejected"]] == [1, 2]
    assert r["cycles"]["seal_64"] > 0 and r["stack"] > 0
    host = protonode.run("host", None, server_pk, node_sk, None, readings, receipts)
    assert host["messages"] == r["messages"] and host["nvm"] == r["nvm"]
    again = protonode.run(board, None, server_pk, node_sk, r["nvm"], readings[:1], [])
    assert int.from_bytes(again["messages"][0][9:17], "big") > 4
    return r


def check_sampled(board, samples, run_samples):
    row = powercut.campaign(board, samples=samples, run_samples=run_samples)
    assert row["points"] == 2 * (samples + run_samples)
    assert row["reuses"] == 0, row


def check_rollback_is_caught(board):
    """The check can fail: booting twice from the same image (NVM rolled back) reuses."""
    c = powercut.Campaign(board)
    try:
        first = c.baseline(bytes(protonode.NVM_BYTES))
        used = first[3]
        again = powercut.protonode.parse(c.run(first[2], count=False)["stdout"])["counters_used"]
        replay = powercut.protonode.parse(c.run(first[2], count=False)["stdout"])["counters_used"]
        assert set(again) & set(used) == set()
        assert again == replay          # same image twice: every counter reused
    finally:
        c.close()


def check_cut_is_exact(board, first, count):
    """Cut before write-function instructions first..first+count-1 of a first boot: each
    image differs from the one before by at most one byte (the stores are byte stores),
    and stepping on from the blank image reaches bytes of the image a full run leaves."""
    c = powercut.Campaign(board)
    try:
        blank = bytes(protonode.NVM_BYTES)
        full = c.run(blank, window=c.window)["nvm"]
        prev = None
        changed = 0
        for n in range(first, first + count):
            img = c.run(blank, cut_at=n, window=c.window)["nvm"]
            if prev is not None:
                diff = [i for i in range(len(img)) if img[i] != prev[i]]
                assert len(diff) <= 1, (n, diff)
                changed += len(diff)
                assert all(img[i] == full[i] or i < 20 for i in diff)   # slot 1 written first
            prev = img
        assert changed > 0
    finally:
        c.close()
