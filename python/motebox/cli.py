# SPDX-License-Identifier: MIT
"""The `motebox` command: keys, sealed files, simulators, demo.

    motebox keygen NAME                 NAME.sk (secret, mode 0600) and NAME.pk
    motebox seal --to BOB.pk [--from ALICE.sk] IN OUT
    motebox open --key BOB.sk [--from ALICE.pk] IN OUT
    motebox sim m4 [options] FIRMWARE.elf
    motebox sim msp430 [--mpy 32|16] [options] FIRMWARE.elf
    motebox demo [--node host|m4|msp430]
"""
import argparse
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from . import fileformat
from ._native import MoteboxError

PROGRESS_MIN = 4 << 20   # show a progress bar for files of 4 MiB and more


@contextmanager
def _progress(total, label):
    """Yield an advance(n) callback; draws a rich progress bar for big files on a TTY."""
    if total < PROGRESS_MIN or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress
    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def _lib():
    import motebox
    return motebox.lib()


def cmd_keygen(args):
    sk = os.urandom(32)
    pk = _lib().x25519_base(sk)
    for suffix in (".sk", ".pk"):
        if Path(args.name + suffix).exists() and not args.force:
            raise MoteboxError(f"{args.name}{suffix} exists (use --force to overwrite)")
    fileformat.write_key(args.name + ".sk", sk, secret=True)
    fileformat.write_key(args.name + ".pk", pk, secret=False)
    print(f"public key {pk.hex()}\nwrote {args.name}.sk (secret) and {args.name}.pk")
    return 0


def cmd_seal(args):
    pk = fileformat.read_key(args.to, "recipient public key")
    sk = fileformat.read_key(args.sender, "sender secret key") if args.sender else None
    size = Path(args.input).stat().st_size
    with _progress(size, "sealing") as advance:
        spk = fileformat.seal_file(_lib(), args.input, args.output, pk, sk, advance)
    print(f"sealed {size} bytes into {args.output} (sender key {spk.hex()[:16]}…)")
    return 0


def cmd_open(args):
    sk = fileformat.read_key(args.key, "recipient secret key")
    expect = fileformat.read_key(args.sender, "sender public key") if args.sender else None
    size = Path(args.input).stat().st_size
    with _progress(2 * size, "verifying and opening") as advance:
        spk = fileformat.open_file(_lib(), args.input, args.output, sk, expect, advance)
    print(f"opened {args.output}: authentic, from sender key {spk.hex()[:16]}…")
    return 0


def cmd_sim(args, rest):
    if args.chip == "m4":
        from .sim import m4 as sim
    else:
        from .sim import msp430 as sim
    return sim.main(rest)


def cmd_demo(args):
    from . import demo
    return demo.main(["--node", args.node])


def build_parser():
    p = argparse.ArgumentParser(prog="motebox", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)

    k = sub.add_parser("keygen", help="make an X25519 key pair NAME.sk / NAME.pk")
    k.add_argument("name")
    k.add_argument("--force", action="store_true", help="overwrite existing key files")

    s = sub.add_parser("seal", help="encrypt and authenticate a file (libsodium crypto_box)")
    s.add_argument("--to", required=True, metavar="PK", help="recipient public key file")
    s.add_argument("--from", dest="sender", metavar="SK",
                   help="sender secret key file (default: a fresh anonymous key)")
    s.add_argument("input")
    s.add_argument("output")

    o = sub.add_parser("open", help="verify and decrypt a sealed file")
    o.add_argument("--key", required=True, metavar="SK", help="recipient secret key file")
    o.add_argument("--from", dest="sender", metavar="PK", help="require this sender public key")
    o.add_argument("input")
    o.add_argument("output")

    m = sub.add_parser("sim", help="run firmware in a simulator", add_help=False)
    m.add_argument("chip", choices=["m4", "msp430"])

    d = sub.add_parser("demo", help="sensor node and server demo")
    d.add_argument("--node", choices=["host", "m4", "msp430"], default="host")
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    try:
        if args.cmd == "sim":
            return cmd_sim(args, rest)
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        return {"keygen": cmd_keygen, "seal": cmd_seal, "open": cmd_open,
                "demo": cmd_demo}[args.cmd](args)
    except (MoteboxError, ValueError, OSError) as e:
        print(f"motebox: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
