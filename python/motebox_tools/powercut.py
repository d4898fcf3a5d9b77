# SPDX-License-Identifier: MIT
"""Power-cut campaigns (issue #17, docs/PROTOCOL.md "Power cuts"): the protocol node
firmware (demo/proto_node.c, kept-key mode: no X25519 per boot) runs on a simulated
chip; the power is cut before instruction N, the firmware is rebooted from the NVM image
as it was at the cut and runs to its end, and every counter it announced ("use C", the
counter a seal takes, printed before the seal starts) in both runs is collected: a
counter announced twice is a nonce reuse.

Cut points, per start image (blank = a first boot; and the image a full run leaves):
  - "reservation": every instruction of the NVM write function (nvm_write: every
    torn-write state the node can leave), counted over the whole run (boot reservation
    and the reservations ahead) -- exhaustive in `make bench`, sampled in `make test`;
  - "run": instructions sampled over the whole run (boot, seals, reservations).

    python -m motebox_tools.powercut bench     bench/results/powercut.json rows
                                               {target, points, reuses, ...}
    python -m motebox_tools.powercut run --board msp430 [--all] [--samples N]
"""
import argparse
import json
import os
import random
import sys
import tempfile
import time

from . import protonode
from .paths import repo

# Readings per run: the boot reserves one block, 17 seals use it up and reserve the next.
READINGS = [bytes([i]) * 16 for i in range(17)]
# The boards, each on its demo build (the assembly one when the board has it).
TARGETS = ("msp430", "m4")
CUT_STATUS = {"msp430": 211, "m4": 212}


def _keys(seed):
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(32)), bytes(rng.randrange(256) for _ in range(8))


def _check_run(out, what):
    """counters announced, and the messages' counters must equal them (in order)."""
    got = protonode.parse(out)
    sent = [int.from_bytes(m[9:17], "big") for m in got["messages"]]
    if sent != got["counters_used"][:len(sent)]:
        raise RuntimeError(f"{what}: messages carry counters {sent}, announced "
                           f"{got['counters_used']}")
    return got


class Campaign:
    """One firmware build on one board; `point(start, n, window)` is one cut and reboot."""

    def __init__(self, board, variant=None, workdir=None, seed=17, libmotebox=None):
        self.board = board
        self.variant = variant or protonode.default_variant(board)
        self._tmp = tempfile.TemporaryDirectory(prefix=f"motebox-powercut-{board}-") \
            if workdir is None else None
        work = workdir or self._tmp.name
        k, key_id = _keys(seed)
        self.elf = protonode.build(board, self.variant, work, READINGS, (), k=k, key_id=key_id,
                                   libmotebox=libmotebox)
        self.window = protonode.write_fn_range(self.elf)

    def close(self):
        if self._tmp is not None:
            self._tmp.cleanup()

    def run(self, nvm, cut_at=None, window=None, count=True):
        return protonode.run_image(self.board, self.variant, self.elf, nvm, cut_at=cut_at,
                                   window=window, count=count)

    def baseline(self, nvm):
        """(counted instructions in the write function, in the whole run, end image,
        counters the run announced)."""
        a = self.run(nvm, window=self.window)
        b = self.run(nvm)
        for r in (a, b):
            got = _check_run(r["stdout"], "baseline")
            if r["status"] != 0 or not got["finished"]:
                raise RuntimeError(f"baseline run failed ({r['status']}):\n{r['stdout']}")
        return a["counted"], b["counted"], a["nvm"], got["counters_used"]

    def point(self, nvm, n, window, prior=()):
        """Cut before counted instruction n (of window, or of the whole run), reboot from
        the image at the cut, run to the end. prior: the counters used by the runs that
        left `nvm`. Returns the number of counters used twice in the whole history."""
        cut = self.run(nvm, cut_at=n, window=window)
        if cut["status"] != CUT_STATUS[self.board]:
            raise RuntimeError(f"cut at {n} did not cut (status {cut['status']}):\n{cut['stdout']}")
        before = _check_run(cut["stdout"], f"cut at {n}")["counters_used"]
        again = self.run(cut["nvm"], count=False)
        got = _check_run(again["stdout"], f"reboot after cut at {n}")
        if again["status"] != 0 or not got["finished"]:
            raise RuntimeError(f"reboot after the cut at {n} failed ({again['status']}):\n"
                               f"{again['stdout']}")
        after = got["counters_used"]
        history = list(prior) + before + after
        return len(history) - len(set(history))


def node_figures(board, variant=None):
    """Cycles of the node's calls with 64-byte readings (keys mode, one receipt)."""
    import nacl.bindings as nb
    server_pk, server_sk = nb.crypto_box_keypair()
    node_pk, node_sk = nb.crypto_box_keypair()
    c = 9     # first boot: counters from 1; the 9th reading gets its receipt
    r = b"\x12" + node_pk[:8] + c.to_bytes(8, "big") + nb.crypto_box_easy(
        bytes(32), b"mbx1\x02" + bytes(11) + c.to_bytes(8, "big"), node_pk, server_sk)
    got = protonode.run(board, variant, server_pk, node_sk, None,
                        [bytes([i]) * 64 for i in range(9)], [r])
    if [a["counter"] for a in got["accepted"]] != [c]:
        raise RuntimeError(f"{board}: the receipt for counter {c} was not accepted")
    return {"seal_64_cycles": got["cycles"]["seal_64"], "boot_cycles": got["cycles"]["boot"],
            "open_receipt_cycles": got["cycles"]["open_receipt_max"],
            "state_bytes": protonode.STATE_BYTES, "stack": got["stack"]}


def campaign(board, variant=None, exhaustive=False, samples=12, run_samples=6, seed=17,
             log=None, libmotebox=None):
    """Cut points on both start images; returns {target, variant, points, reuses,
    reservation_points, run_points, window, seconds}."""
    t0 = time.time()
    c = Campaign(board, variant, seed=seed, libmotebox=libmotebox)
    rng = random.Random(seed)
    points = reuses = res_points = run_points = 0
    try:
        blank = bytes(protonode.NVM_BYTES)
        _, _, used_image, first = c.baseline(blank)
        for start, prior in ((blank, []), (used_image, first)):
            w, total, _, _ = c.baseline(start)
            res = range(w) if exhaustive else sorted(rng.sample(range(w), min(samples, w)))
            for n in res:
                reuses += c.point(start, n, c.window, prior)
                res_points += 1
            for n in sorted(rng.sample(range(total), min(run_samples, total))):
                reuses += c.point(start, n, None, prior)
                run_points += 1
            if log:
                log(f"{board}: start image {'blank' if start is blank else 'used'}: "
                    f"{w} write-function instructions, {total} in the run")
        points = res_points + run_points
    finally:
        c.close()
    return {"target": f"{board} {c.variant}", "variant": c.variant, "points": points,
            "reuses": reuses, "reservation_points": res_points, "run_points": run_points,
            "exhaustive": exhaustive, "seconds": round(time.time() - t0, 1)}


def bench(argv=None):
    """`make bench` step: exhaustive over the write function on both chips, plus sampled
    whole-run points; writes bench/results/powercut.json."""
    ap = argparse.ArgumentParser(prog="motebox_tools.powercut bench")
    ap.add_argument("--boards", nargs="*", default=list(TARGETS))
    ap.add_argument("--run-samples", type=int, default=40)
    args = ap.parse_args(argv)
    rows = []
    for board in args.boards:
        row = campaign(board, exhaustive=True, run_samples=args.run_samples,
                       log=lambda s: print(s, flush=True))
        row.update(node_figures(board))
        print(f"{row['target']}: {row['points']} cut points, {row['reuses']} reuses "
              f"({row['seconds']} s)", flush=True)
        rows.append(row)
    doc = {"target": "powercut", "kind": "powercut",
           "title": "Protocol node: power cuts (nonce reuse after reboot) and cost",
           "conditions": ("demo/proto_node.c (kept-key mode) on the MSP430FR5969 simulator "
                          "(--power-cut) and the Cortex-M4 model (sim/m4/powercut.py); cut "
                          "before every instruction of the NVM write function over the whole "
                          "run (boot reservation and reservations ahead) and at sampled "
                          "instructions of the whole run, from a blank image and from a used "
                          "one; reboot from the NVM image at the cut; reuses = counters "
                          "announced twice across both runs. Cycles: the simulators' cycle "
                          "counters around mb_node_seal (64-byte reading, median of 9), "
                          "mb_node_boot (a first boot: blank image, two reservations) and "
                          "mb_node_open_receipt (the longest attempt); node state = "
                          "sizeof(mb_node); stack: the whole firmware in keys mode (X25519 "
                          "included)."),
           "rows": rows}
    out = repo() / "bench" / "results" / "powercut.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {out}")
    return 0 if all(r["reuses"] == 0 for r in rows) else 1


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:
        return bench(argv[1:])
    ap = argparse.ArgumentParser(prog="motebox_tools.powercut", description=__doc__.split("\n")[0])
    ap.add_argument("cmd", choices=["run"])
    ap.add_argument("--board", choices=list(TARGETS), default="msp430")
    ap.add_argument("--variant")
    ap.add_argument("--all", action="store_true", help="every write-function instruction")
    ap.add_argument("--samples", type=int, default=12)
    ap.add_argument("--run-samples", type=int, default=6)
    args = ap.parse_args(argv)
    row = campaign(args.board, args.variant, args.all, args.samples, args.run_samples,
                   log=print)
    print(json.dumps(row))
    return 0 if row["reuses"] == 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
