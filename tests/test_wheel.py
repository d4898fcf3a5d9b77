# SPDX-License-Identifier: MIT
"""`pip install` of motebox gives a working binding with no source tree: the wheel
(setup.py's build step runs CMakeLists.txt; pyproject.toml) carries libmotebox.so beside
the package, depends on nothing unconditionally (the tools are the `tools` extra), and,
installed into an empty venv, opens a box made by libsodium (PyNaCl) and answers
`motebox --version`."""
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
from nacl import bindings as sodium

from conftest import REPO
from test_layout import api_functions

pytest.importorskip("wheel", reason="the wheel package is missing (make venv)")
if shutil.which("cmake") is None:
    pytest.skip("cmake not installed (make apt)", allow_module_level=True)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    p = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--no-build-isolation", "--disable-pip-version-check", "-w", str(out),
                        str(REPO)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode(errors="replace")[-4000:]
    (whl,) = out.glob("motebox-*.whl")
    assert whl.name.startswith("motebox-") and "-py3-none-" in whl.name and "any" not in whl.name
    return whl


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    """An empty venv (no pip, no site packages) with only the wheel installed."""
    root = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    py = root / "bin" / "python"
    p = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                        "--no-deps", "--disable-pip-version-check", str(wheel)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode(errors="replace")
    return root


def clean_env():
    """No way back to the checkout: no MOTEBOX_* paths, no PYTHONPATH."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("MOTEBOX_") and k not in ("PYTHONPATH", "PYTHONHOME")}


def test_wheel_contents(wheel, tmp_path):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        z.extract("motebox/libmotebox.so", tmp_path)
    assert {"motebox/__init__.py", "motebox/_native.py", "motebox/libmotebox.so",
            "motebox_tools/__init__.py"} <= names
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert requires and all('extra == "tools"' in r for r in requires), requires
    out = subprocess.run(["nm", "-D", "--defined-only", str(tmp_path / "motebox" / "libmotebox.so")],
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    assert {line.split()[-1] for line in out.splitlines() if line.strip()} == api_functions()


def test_installed_wheel_opens_a_libsodium_box(venv, tmp_path):
    a_pk, a_sk = sodium.crypto_box_keypair()
    b_pk, b_sk = sodium.crypto_box_keypair()
    n, m = os.urandom(24), b"sensor reading 42"
    c = sodium.crypto_box_easy(m, n, b_pk, a_sk)
    code = ("import sys, motebox\n"
            "pk, sk, n, c = (bytes.fromhex(a) for a in sys.argv[1:])\n"
            "print(motebox.default_lib_path())\n"
            "print(motebox.box_open(c, n, pk, sk).hex())\n"
            "try:\n"
            "    motebox.box_open(c[:-1] + bytes([c[-1] ^ 1]), n, pk, sk)\n"
            "    print('forged box opened')\n"
            "except motebox.BadBox:\n"
            "    print('forged box refused')\n")
    p = subprocess.run([str(venv / "bin" / "python"), "-c", code, a_pk.hex(), b_sk.hex(),
                        n.hex(), c.hex()], cwd=tmp_path, env=clean_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    assert p.returncode == 0, out
    lines = out.split()
    assert lines[0].startswith(str(venv)) and lines[0].endswith("motebox/libmotebox.so")
    assert lines[1] == m.hex()
    assert out.rstrip().endswith("forged box refused")


def test_installed_wheel_command(venv, tmp_path):
    import motebox
    p = subprocess.run([str(venv / "bin" / "motebox"), "--version"], cwd=tmp_path,
                       env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0 and motebox.__version__ in p.stdout.decode()
