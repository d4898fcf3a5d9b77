# SPDX-License-Identifier: MIT
"""`motebox seal/open` never lose or leak a file: existing outputs, devices, directories
and symbolic links are not silently replaced; failed, interrupted and killed runs
leave no partial or unverified file; `-` is standard input/output and pipes work; bad
inputs get distinct exit statuses. Expected bytes come from libsodium (PyNaCl)."""
import io
import os
import pty
import select
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import nacl.bindings
import pytest

from conftest import REPO

import motebox
from motebox import atomic, cli, fileformat
from motebox.errors import BadBox

ENV = dict(os.environ, PYTHONPATH=str(REPO / "python"))
SHM = Path("/dev/shm")


def run(*args):
    return cli.main([str(a) for a in args])


def _sigint_default():
    # A test run started in the background (`make test &`) inherits SIGINT ignored, and
    # Python then leaves it ignored: Ctrl-C must reach the child as it would a user's.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def motebox_proc(*args, prelude="", **kw):
    """`motebox ARGS` in a child process (prelude: Python run before main), with SIGINT
    at its default whatever this process inherited."""
    code = f"import sys\n{prelude}\nfrom motebox.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], env=ENV,
                            preexec_fn=_sigint_default, **kw)


def motebox_run(*args, input=b"", prelude=""):
    p = motebox_proc(*args, prelude=prelude, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
    out, err = p.communicate(input, timeout=60)
    return p.returncode, out, err.decode()


@pytest.fixture
def d(tmp_path):
    """A directory with bob's key pair (made by libsodium) and a sealed file c of m."""
    pk, sk = nacl.bindings.crypto_box_keypair()
    (tmp_path / "bob.pk").write_text(f"motebox-x25519-public:{pk.hex()}\n")
    (tmp_path / "bob.sk").write_text(f"motebox-x25519-secret:{sk.hex()}\n")
    msg = os.urandom(10_000)
    (tmp_path / "m").write_bytes(msg)
    nonce = os.urandom(24)
    epk, esk = nacl.bindings.crypto_box_keypair()
    (tmp_path / "c").write_bytes(b"MBX1" + epk + nonce + nacl.bindings.crypto_box(msg, nonce, pk, esk))
    d = _Dir(tmp_path)
    d.msg, d.sk = msg, sk
    return d


class _Dir(type(Path())):
    """tmp_path carrying the test's message and secret key."""


def sodium_open(sealed, sk):
    return nacl.bindings.crypto_box_open(sealed[60:], sealed[36:60], sealed[4:36], sk)


def leftovers(directory):
    return sorted(p.name for p in Path(directory).iterdir() if p.name.startswith(".motebox"))


# ---- existing outputs ------------------------------------------------------------------
def test_existing_output_refused_then_forced(d, capsys):
    (d / "out").write_bytes(b"old")
    os.chmod(d / "out", 0o640)
    assert run("open", "--key", d / "bob.sk", d / "c", d / "out") == 8
    assert run("seal", "--to", d / "bob.pk", d / "m", d / "out") == 8
    assert "exists" in capsys.readouterr().err and (d / "out").read_bytes() == b"old"
    assert run("open", "--force", "--key", d / "bob.sk", d / "c", d / "out") == 0
    assert (d / "out").read_bytes() == d.msg
    assert stat.S_IMODE((d / "out").stat().st_mode) == 0o640        # mode kept
    assert run("seal", "--force", "--to", d / "bob.pk", d / "m", d / "out") == 0
    assert sodium_open((d / "out").read_bytes(), d.sk) == d.msg
    assert leftovers(d) == []


def test_failed_open_keeps_old_output(d):
    (d / "out").write_bytes(b"old")
    c = bytearray((d / "c").read_bytes())
    c[-1] ^= 1
    (d / "c").write_bytes(bytes(c))
    assert run("open", "--force", "--key", d / "bob.sk", d / "c", d / "out") == 1
    assert (d / "out").read_bytes() == b"old" and leftovers(d) == []


def test_write_error_keeps_old_output(d):
    """A write failing halfway (here: EFBIG from a 1 MiB file size limit, standing in
    for a full disk) exits 9 and leaves the old OUT and no temporary."""
    msg = os.urandom(3 << 20)
    rc, sealed, _ = motebox_run("seal", "--to", d / "bob.pk", "-", "-", input=msg)
    (d / "big.c").write_bytes(sealed)
    (d / "out").write_bytes(b"old")
    prelude = ("import resource, signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
               "resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))")
    rc, _, err = motebox_run("open", "--force", "--key", d / "bob.sk", d / "big.c", d / "out",
                             prelude=prelude)
    assert rc == 9 and "File too large" in err
    assert (d / "out").read_bytes() == b"old" and leftovers(d) == []


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_non_regular_outputs_refused(d, capsys, force):
    (d / "dir").mkdir()
    os.mkfifo(d / "fifo")
    for out in (d / "dir", d / "fifo", "/dev/null"):
        assert run("open", *force, "--key", d / "bob.sk", d / "c", out) == 8
        assert run("seal", *force, "--to", d / "bob.pk", d / "m", out) == 8
    err = capsys.readouterr().err
    assert "a directory" in err and "a pipe" in err and "a device" in err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and list((d / "dir").iterdir()) == []
    assert leftovers(d) == []


def test_missing_output_directory(d):
    assert run("open", "--key", d / "bob.sk", d / "c", d / "no" / "out") == 8


def test_symlink_refused_without_force(d):
    (d / "target").write_bytes(b"old")
    os.symlink("target", d / "link")
    assert run("open", "--key", d / "bob.sk", d / "c", d / "link") == 8
    assert (d / "target").read_bytes() == b"old" and os.path.islink(d / "link")


def test_symlink_with_force_replaces_its_target_across_filesystems(d):
    """--force writes the file the link points to (the link stays), even on another
    file system (the temporary file lives beside the target, not the link)."""
    far = SHM if SHM.is_dir() and os.access(SHM, os.W_OK) else d
    target = Path(far) / f"motebox-test-{os.getpid()}"
    target.write_bytes(b"old")
    try:
        os.symlink(target, d / "link")
        assert run("open", "--force", "--key", d / "bob.sk", d / "c", d / "link") == 0
        assert os.path.islink(d / "link") and target.read_bytes() == d.msg
        assert leftovers(far) == [] and leftovers(d) == []
    finally:
        target.unlink()


def test_dangling_symlink_refused_even_with_force(d):
    os.symlink(d / "nowhere", d / "link")
    assert run("open", "--force", "--key", d / "bob.sk", d / "c", d / "link") == 8
    assert not (d / "nowhere").exists()


def test_output_appearing_meanwhile_is_not_clobbered(d, monkeypatch):
    real = fileformat.open_sealed

    def racing(*a, **kw):
        r = real(*a, **kw)
        (d / "out").write_bytes(b"someone else's")
        return r
    monkeypatch.setattr(fileformat, "open_sealed", racing)
    assert run("open", "--key", d / "bob.sk", d / "c", d / "out") == 8
    assert (d / "out").read_bytes() == b"someone else's" and leftovers(d) == []


@pytest.mark.parametrize("unnamed", [True, False])
def test_named_fallback_and_unnamed_agree(d, monkeypatch, unnamed):
    """Both ways of making the output (O_TMPFILE, or a named hidden file where that is
    missing) give the same results and leave nothing on failure."""
    monkeypatch.setattr(atomic, "USE_O_TMPFILE", unnamed and atomic.USE_O_TMPFILE)
    assert run("open", "--key", d / "bob.sk", d / "c", d / "out") == 0
    assert (d / "out").read_bytes() == d.msg
    assert run("seal", "--force", "--to", d / "bob.pk", d / "m", d / "out") == 0
    assert sodium_open((d / "out").read_bytes(), d.sk) == d.msg
    (d / "bad").write_bytes((d / "c").read_bytes()[:-1])
    assert run("open", "--key", d / "bob.sk", d / "bad", d / "out2") == 1
    assert not (d / "out2").exists() and leftovers(d) == []


def test_open_fails_if_input_changes_between_passes(d):
    """Pass 2 sees other bytes than pass 1 (an attacker rewriting the file): BadBox."""
    class Flipping(io.BytesIO):
        def seek(self, pos, whence=0):
            b = self.getbuffer()
            b[-1] ^= 1                  # changes once pass 1 is over
            del b
            return super().seek(pos, whence)
    fin = Flipping((d / "c").read_bytes())
    fin.read(0)
    with pytest.raises(BadBox, match="changed"):
        fileformat.open_sealed(motebox.lib(), fin, io.BytesIO(), d.sk)


# ---- interrupted and killed runs ---------------------------------------------------
def _writing_fd(pid, directory):
    """Size of the file process pid has open in `directory` as an unnamed (O_TMPFILE)
    or hidden temporary output, or None."""
    fds = f"/proc/{pid}/fd"
    try:
        for fd in os.listdir(fds):
            try:
                link = os.readlink(f"{fds}/{fd}")
            except OSError:
                continue
            if link.startswith(str(directory) + "/") and (
                    "(deleted)" in link or "/.motebox-" in link or "/#" in link):
                return os.stat(f"{fds}/{fd}").st_size
    except FileNotFoundError:
        return None
    return None


def _still(p):
    """None while p runs; fails the test if it already ended."""
    assert p.poll() is None, f"motebox ended (status {p.returncode}) before the signal"


def _wait_for(pred, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.0005)
    raise AssertionError("timed out")


@pytest.mark.skipif(not atomic.USE_O_TMPFILE, reason="O_TMPFILE is Linux only")
def test_kill_9_during_open_second_pass_leaves_nothing(tmp_path):
    """The finding: a kill -9 while open decrypts used to leave a hidden file of
    plaintext. The output is now an unnamed file: the kernel frees it."""
    base = SHM if SHM.is_dir() and os.access(SHM, os.W_OK) else tmp_path
    work = base / f"motebox-kill-{os.getpid()}"
    work.mkdir()
    try:
        pk, sk = nacl.bindings.crypto_box_keypair()
        (work / "bob.pk").write_text(f"motebox-x25519-public:{pk.hex()}\n")
        (work / "bob.sk").write_text(f"motebox-x25519-secret:{sk.hex()}\n")
        with open(work / "m", "wb") as f:
            f.truncate(200 << 20)                       # 200 MB of zeros, sparse
        assert run("seal", "--to", work / "bob.pk", work / "m", work / "c") == 0
        (work / "m").unlink()
        before = sorted(os.listdir(work))
        p = motebox_proc("open", "--key", work / "bob.sk", work / "c", work / "out",
                         stderr=subprocess.DEVNULL)
        try:
            size = _wait_for(lambda: _writing_fd(p.pid, work) or _still(p))  # pass 2 writes
        finally:
            p.send_signal(signal.SIGKILL)
            p.wait()
        assert 0 < size < (200 << 20)
        assert sorted(os.listdir(work)) == before            # no out, no temporary
    finally:
        for f in work.iterdir():
            f.unlink()
        work.rmdir()


@pytest.mark.parametrize("unnamed", [True, False])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_signal_during_seal_keeps_old_output(d, unnamed, sig):
    """A seal stopped halfway (reading a pipe) leaves the old OUT and no temporary, with
    the named fallback too (cleaned up on signals)."""
    if unnamed and not atomic.USE_O_TMPFILE:
        pytest.skip("O_TMPFILE is Linux only")
    (d / "out").write_bytes(b"old")
    prelude = "" if unnamed else "import motebox.atomic as a; a.USE_O_TMPFILE = False"
    p = motebox_proc("seal", "--force", "--to", d / "bob.pk", "-", d / "out", prelude=prelude,
                     stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(os.urandom(1 << 21))
    p.stdin.flush()
    _wait_for(lambda: (_writing_fd(p.pid, d) or _still(p) or 0) > 0)
    p.send_signal(sig)
    p.wait(timeout=20)      # stdin stays open until it has died: closing it first (as
    _, err = p.communicate(timeout=20)    # communicate does) raced the signal under load
    assert p.returncode == 128 + sig, err
    assert (d / "out").read_bytes() == b"old" and leftovers(d) == []


# ---- standard input and output, pipes ----------------------------------------------
def test_pipes_both_ways_and_dev_stdout(d):
    msg = os.urandom(3 << 20)                          # > one CHUNK
    rc, sealed, err = motebox_run("seal", "--to", d / "bob.pk", "-", "-", input=msg)
    assert rc == 0 and f"sealed {len(msg)} bytes" in err
    assert sodium_open(sealed, d.sk) == msg
    rc, out, err = motebox_run("open", "--key", d / "bob.sk", "-", "/dev/stdout", input=sealed)
    assert rc == 0 and out == msg, err
    rc, out, _ = motebox_run("open", "--key", d / "bob.sk", d / "c", "-")
    assert rc == 0 and out == d.msg


def test_open_to_stdout_releases_nothing_if_forged(d):
    msg = os.urandom(3 << 20)
    rc, sealed, _ = motebox_run("seal", "--to", d / "bob.pk", "-", "-", input=msg)
    forged = sealed[:-1] + bytes([sealed[-1] ^ 1])
    for src in ("pipe", "file"):
        (d / "f").write_bytes(forged)
        args = ("-",) if src == "pipe" else (d / "f",)
        rc, out, err = motebox_run("open", "--key", d / "bob.sk", *args, "-",
                                   input=forged if src == "pipe" else b"")
        assert rc == 1 and out == b"" and "authentication failed" in err


def test_dash_is_stdin_and_dot_slash_dash_a_file(d, monkeypatch):
    monkeypatch.chdir(d)
    (d / "-").write_bytes(d.msg)
    assert run("seal", "--to", "bob.pk", "./-", "c2") == 0
    assert sodium_open((d / "c2").read_bytes(), d.sk) == d.msg


def test_empty_pipe_seals_and_opens(d):
    rc, sealed, err = motebox_run("seal", "--to", d / "bob.pk", "-", "-")
    assert rc == 0 and "sealed 0 bytes" in err and sodium_open(sealed, d.sk) == b""


# ---- bad inputs: clear messages, distinct statuses -----------------------------------
def test_bad_inputs_exit_statuses(d, capsys):
    (d / "empty").write_bytes(b"")
    (d / "short").write_bytes((d / "c").read_bytes()[:75])
    (d / "mbx").write_bytes(b"MBX")
    cases = [(d, 4, "is a directory"), (d / "missing", 4, "No such file"),
             (d / "empty", 5, "empty"), (d / "short", 6, "truncated"),
             (d / "mbx", 6, "truncated"), (d / "m", 7, "not a motebox sealed file")]
    for src, status, says in cases:
        assert run("open", "--key", d / "bob.sk", src, d / "out") == status, src
        assert says in capsys.readouterr().err
    assert run("seal", "--to", d / "bob.pk", d, d / "out") == 4
    assert not (d / "out").exists() and leftovers(d) == []


def test_bad_inputs_from_pipe(d):
    for data, status in ((b"", 5), (b"MBX1" + bytes(10), 6), (b"hello" * 30, 7)):
        rc, out, _ = motebox_run("open", "--key", d / "bob.sk", "-", "-", input=data)
        assert (rc, out) == (status, b"")


def test_help_lists_exit_statuses():
    out = subprocess.run([sys.executable, "-m", "motebox.cli", "open", "--help"], env=ENV,
                         capture_output=True, text=True).stdout
    assert "exit status" in out and "8  output refused" in out and "--force" in out


# ---- memory and progress ----------------------------------------------------------------
def test_memory_bounded(tmp_path, d):
    """Seal and open 64 MB in a child whose peak RSS stays far below the file size."""
    with open(tmp_path / "big", "wb") as f:
        f.truncate(64 << 20)
    # VmHWM: this process image's peak RSS (ru_maxrss would include pytest's, from
    # before the exec).
    prelude = ("import atexit\n"
               "atexit.register(lambda: print('RSS', [l.split()[1] for l in "
               "open('/proc/self/status') if l.startswith('VmHWM')][0], file=sys.stderr))")
    for args in (("seal", "--to", d / "bob.pk", tmp_path / "big", tmp_path / "big.c"),
                 ("open", "--key", d / "bob.sk", tmp_path / "big.c", tmp_path / "big.out")):
        rc, _, err = motebox_run(*args, prelude=prelude)
        assert rc == 0, err
        rss_kib = int(err.split("RSS")[1].split()[0])
        assert rss_kib < 48 << 10, rss_kib
    assert os.path.getsize(tmp_path / "big.out") == 64 << 20


def test_progress_on_terminal_only(d):
    with open(d / "big", "wb") as f:
        f.truncate(5 << 20)
    args = ("seal", "--to", d / "bob.pk", d / "big")
    rc, _, err = motebox_run(*args, d / "c1")
    assert rc == 0 and "%" not in err and "\r" not in err
    master, slave = pty.openpty()
    p = motebox_proc(*args, d / "c2", stderr=slave, stdout=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:
        r, _, _ = select.select([master], [], [], 20)
        try:
            chunk = os.read(master, 4096) if r else b""
        except OSError:                    # EIO: the child closed the terminal
            chunk = b""
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert p.wait(timeout=20) == 0
    assert b"sealing 100%" in seen
