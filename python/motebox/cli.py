# SPDX-License-Identifier: MIT
"""The `motebox` command: keys and sealed files.

    motebox keygen [--force] NAME                  NAME.sk (secret, mode 0600) and NAME.pk
    motebox seal --to BOB.pk [--from ALICE.sk] [--force] IN OUT
    motebox open --key BOB.sk [--from ALICE.pk] [--force] IN OUT
    motebox --version

Further commands (`motebox sim m4|msp430 ...`, `motebox demo ...`) are plug-ins: the
entry points of group `motebox.commands` (registered by motebox_tools), each an object
with `help` and `main(argv) -> status`; this module never imports them until asked.
"""
import argparse
import os
import stat
import sys
import tempfile
from contextlib import contextmanager
from importlib import metadata

from . import __version__, atomic, fileformat, keyfile, lib
from .errors import BadKey, InputError, KeyFileError, MoteboxError, OutputRefused

PROGRESS_MIN = 4 << 20   # show progress for files of 4 MiB and more (and for pipes)
COMMANDS_GROUP = "motebox.commands"
TOOLS_HINT = "install the tools: pip install 'motebox[tools]' (or `make venv` in a checkout)"
STDIN_NAMES = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")
STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")
EXIT_IO = 9

EPILOG = """\
files:
  IN and OUT may be - for standard input / output (a file named - is ./-).
  OUT appears only when complete and (open) verified: a failed, interrupted or killed
  run leaves no partial file and an old OUT unchanged. An existing OUT is refused
  unless --force; directories, devices and pipes are never written; a symbolic link
  is refused unless --force, which replaces the file it points to. open writes
  nothing, not even to standard output, before the whole file has authenticated;
  from a pipe (or to standard output) it keeps a private copy of the ciphertext in
  $TMPDIR for its second pass.
  Key files are one line, e.g. motebox-x25519-public:<64 hex digits>; older files
  (64 hex digits, or 32 raw bytes) are still read.

exit status:
  0  success
  1  authentication failed: forged, tampered, wrong key, other sender
  2  usage error
  3  key file missing, malformed or of the wrong kind
  4  input missing, unreadable or a directory
  5  input empty
  6  input truncated (shorter than the 76-byte header)
  7  input not a sealed file (no MBX1 magic)
  8  output refused: exists, not a regular file, symbolic link, no directory
  9  I/O error (disk full, read error, standard output closed)
  128+N  killed by signal N (130: Ctrl-C); the output is discarded
"""


@contextmanager
def _progress(total, label):
    """Yield an advance(n) callback drawing progress on a terminal (stderr a TTY) for
    big or unknown-size (total None) inputs; None otherwise."""
    if (total is not None and total < PROGRESS_MIN) or not sys.stderr.isatty():
        yield None
        return
    done = [0, None]

    def advance(n):
        done[0] += n
        if total:
            now = f"{min(100, done[0] * 100 // total):3d}%"
        else:
            now = f"{done[0] >> 20} MiB"
        if now != done[1]:
            done[1] = now
            sys.stderr.write(f"\r{label} {now}")
            sys.stderr.flush()
    try:
        yield advance
    finally:
        if done[1] is not None:
            sys.stderr.write("\r" + " " * (len(label) + 12) + "\r")
            sys.stderr.flush()


def plugin_commands():
    """{name: entry point} of the installed `motebox.commands` plug-ins."""
    try:
        eps = metadata.entry_points(group=COMMANDS_GROUP)
    except TypeError:                       # Python 3.9: a dict of groups
        eps = metadata.entry_points().get(COMMANDS_GROUP, [])
    return {ep.name: ep for ep in eps}


@contextmanager
def _input(path):
    """(binary file, size or None, seekable) for IN; InputError (exit 4) if it is
    missing, unreadable or a directory. Pipes and devices are read as streams."""
    name = "standard input" if path in STDIN_NAMES else path
    try:
        fd = (os.dup(0) if path in STDIN_NAMES else
              os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)))
    except OSError as e:
        raise InputError(f"{name}: {e.strerror}") from None
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        os.close(fd)
        raise InputError(f"{name}: is a directory")
    regular = stat.S_ISREG(st.st_mode)
    with open(fd, "rb") as f:
        size = st.st_size - f.tell() if regular else None
        yield f, size, regular, name


def _to_stdout(path):
    return path in STDOUT_NAMES


def _copy(src, dst):
    while True:
        chunk = src.read(fileformat.CHUNK)
        if not chunk:
            break
        dst.write(chunk)


def cmd_keygen(args):
    names = (args.name + ".sk", args.name + ".pk")
    for name in names:                      # both checked before either is written
        if os.path.lexists(name) and not args.force:
            raise OutputRefused(f"{name} exists (use --force to overwrite)")
    sk = os.urandom(32)
    pk = lib().x25519_base(sk)
    keyfile.write_key(names[0], sk, "secret", force=args.force)
    keyfile.write_key(names[1], pk, "public", force=args.force)
    print(f"public key {pk.hex()}\nwrote {names[0]} (secret) and {names[1]}")
    return 0


def cmd_seal(args):
    pk = keyfile.read_key(args.to, "public", "recipient public key (--to)")
    sk = (keyfile.read_key(args.sender, "secret", "sender secret key (--from)")
          if args.sender else None)
    try:
        with _input(args.input) as (fin, size, _seekable, _name), \
                _progress(size, "sealing") as advance:
            if _to_stdout(args.output):
                # The tag precedes the ciphertext: spool, then write header+tag+ciphertext.
                with tempfile.TemporaryFile() as spool:
                    spk, n = fileformat.seal(lib(), fin, spool, pk, sk, advance)
                    spool.seek(0)
                    _copy(spool, sys.stdout.buffer)
                    sys.stdout.buffer.flush()
                where = "standard output"
            else:
                with atomic.create(args.output, force=args.force) as out:
                    spk, n = fileformat.seal(lib(), fin, out.file, pk, sk, advance)
                    out.commit()
                where = args.output
    except BadKey:
        raise KeyFileError(f"recipient public key (--to) {args.to}: a low-order point "
                           f"(no secret key matches it)") from None
    print(f"sealed {n} bytes into {where} (sender key {spk.hex()[:16]}…)", file=sys.stderr)
    return 0


def cmd_open(args):
    sk = keyfile.read_key(args.key, "secret", "recipient secret key (--key)")
    expect = (keyfile.read_key(args.sender, "public", "sender public key (--from)")
              if args.sender else None)
    with _input(args.input) as (fin, size, seekable, name):
        work = None if size is None else 2 * max(0, size - fileformat.HEADER)
        with _progress(work, "verifying and opening") as advance:
            if _to_stdout(args.output):
                # Pass 2 reads a private copy: what reaches stdout is what pass 1 checked.
                with tempfile.TemporaryFile() as spool:
                    spk = fileformat.open_sealed(lib(), fin, sys.stdout.buffer, sk, expect,
                                                 advance, spool=spool, name=name)
                    sys.stdout.buffer.flush()
                where = "standard output"
            else:
                with atomic.create(args.output, force=args.force) as out, \
                        (tempfile.TemporaryFile() if not seekable else _nothing()) as spool:
                    spk = fileformat.open_sealed(lib(), fin, out.file, sk, expect, advance,
                                                 spool=spool, name=name)
                    out.commit()
                where = args.output
    print(f"opened {where}: authentic, from sender key {spk.hex()[:16]}…", file=sys.stderr)
    return 0


@contextmanager
def _nothing():
    yield None


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
    p = argparse.ArgumentParser(prog="motebox", description=__doc__.split("\n")[0],
                                epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"motebox {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def command(name, help):
        return sub.add_parser(name, help=help, epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    k = command("keygen", "make an X25519 key pair NAME.sk / NAME.pk")
    k.add_argument("name")
    k.add_argument("--force", action="store_true",
                   help="replace existing key files (always written as new files)")

    s = command("seal", "encrypt and authenticate a file (libsodium crypto_box)")
    s.add_argument("--to", required=True, metavar="PK", help="recipient public key file")
    s.add_argument("--from", dest="sender", metavar="SK",
                   help="sender secret key file (default: a fresh anonymous key)")
    s.add_argument("--force", action="store_true", help="replace an existing OUT")
    s.add_argument("input", metavar="IN", help="file to seal, or - for standard input")
    s.add_argument("output", metavar="OUT", help="sealed file, or - for standard output")

    o = command("open", "verify and decrypt a sealed file")
    o.add_argument("--key", required=True, metavar="SK", help="recipient secret key file")
    o.add_argument("--from", dest="sender", metavar="PK", help="require this sender public key")
    o.add_argument("--force", action="store_true", help="replace an existing OUT")
    o.add_argument("input", metavar="IN", help="sealed file, or - for standard input")
    o.add_argument("output", metavar="OUT", help="plaintext file, or - for standard output")

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
    atomic.cleanup_on_signals()
    try:
        return BUILTIN[args.cmd](args)
    except MoteboxError as e:
        print(f"motebox: {e}", file=sys.stderr)
        return e.exit_status
    except BrokenPipeError:
        # The reader of our standard output went away: say so once, quietly.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        print("motebox: standard output closed", file=sys.stderr)
        return EXIT_IO
    except OSError as e:
        print(f"motebox: {e}", file=sys.stderr)
        return EXIT_IO
    except ValueError as e:
        print(f"motebox: {e}", file=sys.stderr)
        return 1
    except atomic.Interrupted as e:
        print(f"motebox: {e}", file=sys.stderr)
        return e.exit_status
    except KeyboardInterrupt:
        print("motebox: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
