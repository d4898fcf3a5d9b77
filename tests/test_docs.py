# SPDX-License-Identifier: MIT
"""The API reference (`make docs`: Doxygen over include/motebox.h through
tools/doxygen_filter.py) builds with zero warnings, so every public symbol is
documented, with one page per section of the header; and the check can fail: a header
with an undocumented function is refused."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import REPO
from test_layout import api_functions

DOXYGEN = shutil.which("doxygen")
pytestmark = pytest.mark.skipif(DOXYGEN is None, reason="doxygen not installed (make apt)")


def doxygen(root, out):
    """Run Doxygen with the project's Doxyfile in the tree root: (status, warnings)."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, MB_DOCS_OUT=str(out), MB_VERSION="test")
    p = subprocess.run([DOXYGEN, str(REPO / "docs" / "Doxyfile")], cwd=root, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    log = out / "warnings.log"
    return p.returncode, (log.read_text() if log.exists() else "") + p.stdout.decode(errors="replace")


def test_api_reference_has_no_warnings(tmp_path):
    status, warnings = doxygen(REPO, tmp_path)
    assert status == 0 and not warnings.strip(), warnings
    html = tmp_path / "html"
    groups = sorted(p.name for p in html.glob("group__*.html"))
    banners = re.findall(r"^/\* -{2,} ", (REPO / "include" / "motebox.h").read_text(), flags=re.M)
    assert len(groups) == len(banners) >= 6, groups
    text = "".join(p.read_text() for p in html.glob("group__*.html"))
    for fn in api_functions():
        assert f"{fn}()" in text, f"{fn} has no entry in the reference"


def test_undocumented_function_fails(tmp_path):
    tree = tmp_path / "tree"
    (tree / "include").mkdir(parents=True)
    (tree / "tools").mkdir()
    shutil.copy(REPO / "tools" / "doxygen_filter.py", tree / "tools")
    header = (REPO / "include" / "motebox.h").read_text()
    cut = header.rindex("#ifdef __cplusplus")
    header = header[:cut] + "int mb_undocumented(int x);\n\n" + header[cut:]
    (tree / "include" / "motebox.h").write_text(header)
    status, warnings = doxygen(tree, tmp_path / "out")
    assert status != 0 and "mb_undocumented" in warnings
