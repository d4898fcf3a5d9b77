# SPDX-License-Identifier: MIT
"""The `motebox` command: key files, sealed files that libsodium opens, failures that
leave no output behind."""
import os
import subprocess
import sys

import nacl.bindings
import pytest

from conftest import REPO

from motebox import cli


def run(*args):
    return cli.main([str(a) for a in args])


@pytest.fixture
def keys(tmp_path):
    assert run("keygen", tmp_path / "alice") == 0
    assert run("keygen", tmp_path / "bob") == 0
    return tmp_path


def _key(path):
    """The key in a key file, parsed here (not by motebox): 'motebox-x25519-KIND:<hex>'."""
    return bytes.fromhex(path.read_text().strip().split(":")[1])


def test_keygen_files(keys):
    sk, pk = _key(keys / "alice.sk"), _key(keys / "alice.pk")
    assert nacl.bindings.crypto_scalarmult_base(sk) == pk
    assert (keys / "alice.sk").read_text() == f"motebox-x25519-secret:{sk.hex()}\n"
    assert (keys / "alice.pk").read_text() == f"motebox-x25519-public:{pk.hex()}\n"
    assert (keys / "alice.sk").stat().st_mode & 0o777 == 0o600
    assert run("keygen", keys / "alice") == 8          # refuses to overwrite
    assert _key(keys / "alice.sk") == sk


@pytest.mark.parametrize("size", [0, 1, 63, 64, 65, 100_000, 200_003])
def test_seal_opens_with_libsodium(keys, size):
    msg = os.urandom(size)
    (keys / "m").write_bytes(msg)
    assert run("seal", "--to", keys / "bob.pk", "--from", keys / "alice.sk", keys / "m", keys / "c") == 0
    c = (keys / "c").read_bytes()
    assert c[:4] == b"MBX1" and len(c) == 76 + size
    sender_pk, nonce = c[4:36], c[36:60]
    assert sender_pk == _key(keys / "alice.pk")
    assert nacl.bindings.crypto_box_open(c[60:], nonce, sender_pk, _key(keys / "bob.sk")) == msg
    assert run("open", "--key", keys / "bob.sk", "--from", keys / "alice.pk", keys / "c", keys / "out") == 0
    assert (keys / "out").read_bytes() == msg


def test_open_libsodium_made_file(keys):
    msg = os.urandom(5000)
    nonce = os.urandom(24)
    sender_pk, sender_sk = nacl.bindings.crypto_box_keypair()
    box = nacl.bindings.crypto_box(msg, nonce, _key(keys / "bob.pk"), sender_sk)
    (keys / "c").write_bytes(b"MBX1" + sender_pk + nonce + box)
    assert run("open", "--key", keys / "bob.sk", keys / "c", keys / "out") == 0
    assert (keys / "out").read_bytes() == msg


def test_anonymous_sender(keys):
    (keys / "m").write_bytes(b"reading 42")
    assert run("seal", "--to", keys / "bob.pk", keys / "m", keys / "c") == 0
    assert run("open", "--key", keys / "bob.sk", keys / "c", keys / "out") == 0
    assert (keys / "out").read_bytes() == b"reading 42"


@pytest.mark.parametrize("where", [0, 3, 5, 40, 59, 60, 75, 76, 500, -1])
def test_tampered_file_leaves_no_output(keys, where, capsys):
    (keys / "m").write_bytes(os.urandom(1000))
    assert run("seal", "--to", keys / "bob.pk", keys / "m", keys / "c") == 0
    c = bytearray((keys / "c").read_bytes())
    c[where] ^= 0x10
    (keys / "c").write_bytes(bytes(c))
    # a damaged magic is "not a sealed file" (7); anything else fails authentication (1)
    assert run("open", "--key", keys / "bob.sk", keys / "c", keys / "out") == (7 if 0 <= where < 4 else 1)
    assert not (keys / "out").exists()
    assert not [p for p in keys.iterdir() if p.name.startswith(".motebox-")]
    assert "motebox:" in capsys.readouterr().err


def test_wrong_key_truncated_and_wrong_sender(keys, capsys):
    (keys / "m").write_bytes(b"x" * 300)
    assert run("seal", "--to", keys / "bob.pk", "--from", keys / "alice.sk", keys / "m", keys / "c") == 0
    assert run("open", "--key", keys / "alice.sk", keys / "c", keys / "out") == 1
    assert run("open", "--key", keys / "bob.sk", "--from", keys / "bob.pk", keys / "c", keys / "out") == 1
    assert "different sender" in capsys.readouterr().err
    (keys / "t").write_bytes((keys / "c").read_bytes()[:70])
    assert run("open", "--key", keys / "bob.sk", keys / "t", keys / "out") == 6
    assert "truncated" in capsys.readouterr().err
    (keys / "bad.pk").write_text("zz\n")
    assert run("seal", "--to", keys / "bad.pk", keys / "m", keys / "c2") == 3
    assert "not a key file" in capsys.readouterr().err
    assert not (keys / "out").exists() and not (keys / "c2").exists()


def test_console_script_installed():
    exe = REPO / ".venv" / "bin" / "motebox"
    assert exe.exists(), "make setup installs the motebox command into .venv/bin"
    out = subprocess.run([str(exe), "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "keygen" in out.stdout


def test_demo_host_runs():
    out = subprocess.run([sys.executable, "-m", "motebox_tools.demo", "--node", "host", "--readings", "64"],
                         capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "demo: OK" in out.stdout and "[FAIL]" not in out.stdout
