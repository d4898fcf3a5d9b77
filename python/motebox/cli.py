# SPDX-License-Identifier: MIT
"""The `motebox` command: keys and sealed files.

    motebox keygen NAME                 NAME.sk (secret, mode 0600) and NAME.pk
    motebox seal --to BOB.pk [--from ALICE.sk] IN OUT
    motebox open --key BOB.sk [--from ALICE.pk] IN OUT
    motebox --version

Further commands (`motebox sim m4|msp430 ...`, `motebox demo ...`) are plug-ins: the
entry points of group `motebox.commands` (registered by motebox_tools), each an object
with `help` and `main(argv) -> status`; this module never imports them until asked.
"""
import argparse
import os
import sys
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

from . import __version__, fileformat, lib
from .errors import MoteboxError

PROGRESS_MIN = 4 << 20   # show progress for files of 4 MiB and more
COMMANDS_GROUP = "motebox.commands"
TOOLS_HINT = "install the tools: pip install 'motebox[tools]' (or `make venv` in a checkout)"


@contextmanager
def _progress(total, label):
    """Yield an advance(n) callback printing a percentage for big files on a TTY."""
    if total < PROGRESS_MIN or not sys.stderr.isatty():
        yield None
        return
    done = [0, -1]

    def advance(n):
        done[0] += n
        pct = min(100, done[0] * 100 // total)
        if pct != done[1]:
            done[1] = pct
            sys.stderr.write(f"\r{label} {pct:3d}%")
            sys.stderr.flush()
    try:
        yield advance
    finally:
        sys.stderr.write("\r" + " " * (len(label) + 5) + "\r")
        sys.stderr.flush()


def plugin_commands():
    """{name: entry point} of the installed `motebox.commands` plug-ins."""
    try:
        eps = metadata.entry_points(group=COMMANDS_GROUP)
    except TypeError:                       # Python 3.9: a dict of groups
        eps = metadata.entry_points().get(COMMANDS_GROUP, [])
    return {ep.name: ep for ep in eps}


def cmd_keygen(args):
    sk = os.urandom(32)
    pk = lib().x25519_base(sk)
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
        spk = fileformat.seal_file(lib(), args.input, args.output, pk, sk, advance)
    print(f"sealed {size} bytes into {args.output} (sender key {spk.hex()[:16]}…)")
    return 0


def cmd_open(args):
    sk = fileformat.read_key(args.key, "recipient secret key")
    expect = fileformat.read_key(args.sender, "sender public key") if args.sender else None
    size = Path(args.input).stat().st_size
    with _progress(2 * size, "verifying and opening") as advance:
        spk = fileformat.open_file(lib(), args.input, args.output, sk, expect, advance)
    print(f"opened {args.output}: authentic, from sender key {spk.hex()[:16]}…")
    return 0


def run_plugin(ep, argv):
    """Load plug-in command `ep` and run it; a missing tools dependency is reported with
    what to install."""
    try:
        return ep.load().main(argv)
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] in ("motebox", "motebox_tools"):
            raise               # our own bug, not a missing dependency
        print(f"motebox {ep.name}: {e}; {TOOLS_HINT}", file=sys.stderr)
        return 1


def build_parser(plugins=None):
    plugins = plugin_commands() if plugins is None else plugins
    p = argparse.ArgumentParser(prog="motebox", description=__doc__.split("\n")[0])
    p.add_argument("--version", action="version", version=f"motebox {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

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

    for name in sorted(plugins):
        # The plug-in parses its own arguments (and --help).
        sub.add_parser(name, help=f"a tool command (motebox {name} --help)",
                       add_help=False)
    return p


BUILTIN = {"keygen": cmd_keygen, "seal": cmd_seal, "open": cmd_open}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    plugins = plugin_commands()
    if argv and not argv[0].startswith("-") and argv[0] not in BUILTIN:
        if argv[0] in plugins:
            return run_plugin(plugins[argv[0]], argv[1:])
        print(f"motebox: no command {argv[0]!r} here: keygen, seal and open come with the "
              f"binding; the simulator and demo commands with its tools ({TOOLS_HINT})",
              file=sys.stderr)
        return 2
    parser = build_parser(plugins)
    args = parser.parse_args(argv)
    try:
        return BUILTIN[args.cmd](args)
    except (MoteboxError, ValueError, OSError) as e:
        print(f"motebox: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
