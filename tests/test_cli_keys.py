# SPDX-License-Identifier: MIT
"""`motebox` key files: they say what they hold, a key of the wrong kind is refused with
a message naming the file, old untagged files still work, and keygen writes secrets
as new 0600 files that no symbolic link or old mode can redirect or widen."""
import os
import stat

import nacl.bindings
import pytest

from motebox import cli


def run(*args):
    return cli.main([str(a) for a in args])


def sodium_pair():
    pk, sk = nacl.bindings.crypto_box_keypair()
    return pk, sk


def seal_and_check(tmp_path, to, key, msg=b"reading 42"):
    """Seal with --to `to`, open with --key `key`; return both statuses."""
    (tmp_path / "m").write_bytes(msg)
    for p in ("c", "out"):
        if (tmp_path / p).exists():
            (tmp_path / p).unlink()
    rs = run("seal", "--to", to, tmp_path / "m", tmp_path / "c")
    ro = run("open", "--key", key, tmp_path / "c", tmp_path / "out") if rs == 0 else None
    return rs, ro


def test_public_key_as_secret_and_back(tmp_path, capsys):
    assert run("keygen", tmp_path / "bob") == 0
    (tmp_path / "m").write_bytes(b"x")
    assert run("seal", "--to", tmp_path / "bob.sk", tmp_path / "m", tmp_path / "c") == 3
    err = capsys.readouterr().err
    assert "bob.sk" in err and "secret key" in err and "public key" in err
    assert not (tmp_path / "c").exists()
    assert run("seal", "--to", tmp_path / "bob.pk", tmp_path / "m", tmp_path / "c") == 0
    assert run("open", "--key", tmp_path / "bob.pk", tmp_path / "c", tmp_path / "out") == 3
    err = capsys.readouterr().err
    assert "bob.pk" in err and "holds a X25519 public key" in err
    assert run("seal", "--to", tmp_path / "bob.pk", "--from", tmp_path / "bob.pk",
               tmp_path / "m", tmp_path / "c2") == 3
    assert run("open", "--key", tmp_path / "bob.sk", "--from", tmp_path / "bob.sk",
               tmp_path / "c", tmp_path / "out") == 3
    assert not (tmp_path / "out").exists() and not (tmp_path / "c2").exists()


def test_old_key_files_still_read(tmp_path):
    """64 hex digits and 32 raw bytes (what motebox wrote before), kind from the name."""
    pk, sk = sodium_pair()
    (tmp_path / "hex.pk").write_text(pk.hex() + "\n")
    (tmp_path / "raw.sk").write_bytes(sk)
    msg = os.urandom(3000)
    assert seal_and_check(tmp_path, tmp_path / "hex.pk", tmp_path / "raw.sk", msg) == (0, 0)
    assert (tmp_path / "out").read_bytes() == msg
    c = (tmp_path / "c").read_bytes()
    assert nacl.bindings.crypto_box_open(c[60:], c[36:60], c[4:36], sk) == msg
    # unnamed kind: taken as asked
    (tmp_path / "plainkey").write_text(pk.hex().upper() + "\r\n")
    assert seal_and_check(tmp_path, tmp_path / "plainkey", tmp_path / "raw.sk")[0] == 0
    # an old secret file named .sk is still not a public key
    (tmp_path / "old.sk").write_text(sk.hex() + "\n")
    assert seal_and_check(tmp_path, tmp_path / "old.sk", tmp_path / "raw.sk")[0] == 3


@pytest.mark.parametrize("content, says", [
    (b"0123456789abcdef0123456789abcdef", "32 hex digits"),        # not 32 raw bytes
    (b"0123456789abcdef0123456789abcdef\n", "32 hex digits"),
    (b"ab" * 31 + b"\n", "62 hex digits"),
    (b"", "not a key file"),
    (b"\xff" * 31, "not a key file"),
    (b"\xff" * 33, "not a key file"),
    (b"motebox-x448-public:" + b"00" * 56 + b"\n", "unknown key type"),
    (b"motebox-x25519-public:" + b"00" * 31 + b"\n", "31 bytes"),
    (b"motebox-x25519-public:abc\n", "odd number"),
    (b"motebox-p256-public:04" + b"11" * 64 + b"\n", "P-256 public key"),
    (b"motebox-x25519-secret:" + b"11" * 32 + b"\n", "X25519 secret key"),
    (b"x" * 100_000, "too long"),
])
def test_bad_recipient_key_files(tmp_path, capsys, content, says):
    (tmp_path / "k").write_bytes(content)
    (tmp_path / "m").write_bytes(b"x")
    assert run("seal", "--to", tmp_path / "k", tmp_path / "m", tmp_path / "c") == 3
    err = capsys.readouterr().err
    assert says in err and str(tmp_path / "k") in err
    assert not (tmp_path / "c").exists()


def test_key_path_not_a_file(tmp_path, capsys):
    (tmp_path / "m").write_bytes(b"x")
    assert run("seal", "--to", tmp_path, tmp_path / "m", tmp_path / "c") == 3
    assert run("seal", "--to", tmp_path / "missing.pk", tmp_path / "m", tmp_path / "c") == 3
    os.mkfifo(tmp_path / "fifo.pk")           # must not hang waiting for a writer
    assert run("seal", "--to", tmp_path / "fifo.pk", tmp_path / "m", tmp_path / "c") == 3
    err = capsys.readouterr().err
    assert "not a regular file" in err and "No such file" in err


def _secret_ok(path):
    st = os.lstat(path)
    return stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600


def test_keygen_force_over_world_readable_secret(tmp_path):
    assert run("keygen", tmp_path / "k") == 0
    old = (tmp_path / "k.sk").read_text()
    os.chmod(tmp_path / "k.sk", 0o644)
    assert run("keygen", "--force", tmp_path / "k") == 0
    assert _secret_ok(tmp_path / "k.sk") and (tmp_path / "k.sk").read_text() != old


def test_keygen_secret_0600_under_any_umask(tmp_path):
    old = os.umask(0)
    try:
        assert run("keygen", tmp_path / "k") == 0
    finally:
        os.umask(old)
    assert _secret_ok(tmp_path / "k.sk")


def test_keygen_force_replaces_links_never_follows_them(tmp_path):
    (tmp_path / "victim").write_text("keep me\n")
    os.symlink(tmp_path / "victim", tmp_path / "k.sk")
    os.symlink(tmp_path / "nowhere", tmp_path / "k.pk")       # dangling
    assert run("keygen", tmp_path / "k") == 8                  # exists: refused
    assert run("keygen", "--force", tmp_path / "k") == 0
    assert (tmp_path / "victim").read_text() == "keep me\n"
    assert not (tmp_path / "nowhere").exists()
    assert _secret_ok(tmp_path / "k.sk")
    assert not os.path.islink(tmp_path / "k.pk")


def test_keygen_checks_both_files_first(tmp_path):
    (tmp_path / "k.pk").write_text("old\n")
    assert run("keygen", tmp_path / "k") == 8
    assert not (tmp_path / "k.sk").exists()                    # nothing half-made


def test_keygen_refuses_directory_even_with_force(tmp_path):
    (tmp_path / "k.sk").mkdir()
    assert run("keygen", "--force", tmp_path / "k") == 8
    assert (tmp_path / "k.sk").is_dir() and not (tmp_path / "k.pk").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["k.sk"]    # no temporary left


def test_low_order_recipient_key(tmp_path, capsys):
    """libsodium refuses all-zero shared secrets; so does seal, naming the key file."""
    (tmp_path / "zero.pk").write_text("motebox-x25519-public:" + "00" * 32 + "\n")
    (tmp_path / "m").write_bytes(b"x")
    assert run("seal", "--to", tmp_path / "zero.pk", tmp_path / "m", tmp_path / "c") == 3
    assert "zero.pk: a low-order point" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()
