# SPDX-License-Identifier: MIT
"""The Python layout (issue #19): no import cycles in motebox and motebox_tools (the
module-level import graph, read from the AST with relative imports resolved); the
binding imports the standard library and itself only, and loading it pulls in none of
the tools' dependencies; the binding works outside the checkout; one boards table."""
import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

PYDIR = REPO / "python"
PACKAGES = ("motebox", "motebox_tools")
TOOLS_DEPS = ("unicorn", "capstone", "elftools", "numpy", "nacl", "matplotlib")


# ---- the import graph ------------------------------------------------------------------
def modules(root=PYDIR, packages=PACKAGES):
    """{dotted name: (path, is_package)} of every module of the packages."""
    found = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            if is_pkg:
                parts = parts[:-1]
            found[".".join(parts)] = (path, is_pkg)
    return found


def _resolve(mod, is_pkg, level, name):
    """Absolute name of `from <level dots><name> import ...` in module mod."""
    if level == 0:
        return name
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports(mod, path, is_pkg, known, top_level_only=True):
    """Names of the modules `mod` imports: at module level (statements outside def and
    class, including under try/if/with), or everywhere with top_level_only=False. For
    `from X import a`, X.a when that is a module, else X."""
    tree = ast.parse(path.read_text(), str(path))
    out = set()

    def visit(nodes):
        for node in nodes:
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                src = _resolve(mod, is_pkg, node.level, node.module)
                for a in node.names:
                    sub = f"{src}.{a.name}"
                    out.add(sub if sub in known else src)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not top_level_only:
                    visit(node.body)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    visit(getattr(node, field, []) or [])
    visit(tree.body)
    return out


def import_graph(root=PYDIR, packages=PACKAGES):
    """{module: set of modules of the same packages it imports at module level}."""
    known = modules(root, packages)
    return {m: {i for i in imports(m, p, pkg, known) if i in known}
            for m, (p, pkg) in known.items()}


def cycles(graph):
    """The strongly connected components with a cycle (more than one module, or a module
    importing itself), each sorted; Tarjan's algorithm, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1 or v in graph.get(v, ()):
                        out.append(sorted(comp))
    return sorted(out)


def test_cycle_finder_on_synthetic_graphs():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}, "b": set()}) == [["a"]]
    two = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c", "e"}, "e": set()}
    assert cycles(two) == [["a", "b"], ["c", "d"]]
    # a long chain closing on itself, deeper than the recursion limit would allow
    n = 5000
    chain = {f"m{i}": {f"m{i + 1}"} for i in range(n)}
    chain[f"m{n}"] = {"m0"}
    assert len(cycles(chain)) == 1 and len(cycles(chain)[0]) == n + 1


def test_graph_reader_on_a_synthetic_package(tmp_path):
    """Relative imports (., .., from . import submodule), imports in try/if count, imports
    inside functions do not: p.a -> p.b -> p.sub.c -> p.a is a cycle, p.d's lazy import
    of p.a is not."""
    pkg = tmp_path / "p"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("try:\n    from .sub.c import f\nexcept ImportError:\n    pass\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("import os\nfrom .. import a\ndef f():\n    pass\n")
    (pkg / "d.py").write_text("def g():\n    from . import a\n")
    g = import_graph(tmp_path, ("p",))
    assert g["p.a"] == {"p.b"} and g["p.b"] == {"p.sub.c"} and g["p.sub.c"] == {"p.a"}
    assert g["p.d"] == set()
    assert cycles(g) == [["p.a", "p.b", "p.sub.c"]]


def test_no_import_cycles():
    graph = import_graph()
    assert {"motebox", "motebox.cli", "motebox_tools.sim.m4.machine",
            "motebox_tools.boards"} <= set(graph)
    assert cycles(graph) == []


# ---- the binding: standard library only ------------------------------------------------
def test_binding_imports_only_stdlib_and_itself():
    known = modules(PYDIR, ("motebox",))
    bad = {}
    for m, (path, is_pkg) in known.items():
        for name in imports(m, path, is_pkg, known, top_level_only=False):
            top = name.split(".")[0]
            if top != "motebox" and top not in sys.stdlib_module_names:
                bad.setdefault(m, []).append(name)
    assert bad == {}


def _loaded_after(code, env=None):
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted("
                          "m for m in sys.modules)))"], capture_output=True, text=True,
                         env=env, check=True).stdout.split()
    return set(out)


def test_import_motebox_loads_no_tool_dependency():
    env = dict(os.environ, PYTHONPATH=str(PYDIR))
    loaded = _loaded_after("import motebox, motebox.cli, motebox.fileformat\n"
                           "motebox.cli.build_parser()", env)
    assert "motebox" in loaded and "motebox.cli" in loaded
    heavy = {m for m in loaded if m.split(".")[0] in TOOLS_DEPS + ("motebox_tools",)}
    assert heavy == set()


def test_binding_outside_the_checkout(tmp_path):
    """A copy of the package away from the tree (as in a wheel) imports; calls say where
    the library was looked for and what to do; MOTEBOX_LIB points it at a build."""
    shutil.copytree(PYDIR / "motebox", tmp_path / "motebox",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("MOTEBOX_")}
    env["PYTHONPATH"] = str(tmp_path)
    code = ("import motebox\n"
            "try:\n    motebox.x25519_base(bytes(32))\n"
            "except motebox.LibraryNotFound as e:\n    print('NOTFOUND', e)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=tmp_path, check=True)
    assert p.stdout.startswith("NOTFOUND") and "MOTEBOX_LIB" in p.stdout and "make" in p.stdout
    lib = REPO / "build" / "host" / "libmotebox.so"
    if not lib.exists():
        pytest.fail(f"{lib} missing: run `make` first")
    env["MOTEBOX_LIB"] = str(lib)
    p = subprocess.run([sys.executable, "-c", "import motebox\n"
                        "print(motebox.x25519_base(bytes(31) + b'\\x09').hex())"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    import nacl.bindings
    assert p.stdout.strip() == nacl.bindings.crypto_scalarmult_base(bytes(31) + b"\x09").hex()


def test_p256_methods_are_defined_in_the_class():
    """No attributes attached at import time: the P-256 methods belong to a class body."""
    import motebox
    from motebox.p256 import P256
    for name in ("p256_base", "p256_ecdh", "p256_ecdh_randomized", "p256_compress",
                 "p256_decompress"):
        assert name in vars(P256) and getattr(motebox.Library, name) is vars(P256)[name]
    src = (PYDIR / "motebox" / "p256.py").read_text()
    assert "setattr(" not in src


def test_version():
    import motebox
    exe = REPO / ".venv" / "bin" / "motebox"
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"motebox {motebox.__version__}"


# ---- the tools: one boards table ---------------------------------------------------------
def test_boards_table():
    """Listing the boards imports none of them; each provides the board interface; the
    demo's --node choices are the table's names."""
    env = dict(os.environ, PYTHONPATH=str(PYDIR))
    loaded = _loaded_after("import motebox_tools.boards as b\nassert b.BOARDS", env)
    assert not {m for m in loaded if m.startswith("motebox_tools.boards.")}
    from motebox_tools import demo
    from motebox_tools.boards import BOARDS, board
    for name in BOARDS:
        mod = board(name)
        assert isinstance(mod.TITLE, str) and mod.VARIANTS and callable(mod.run_node)
    for name in ("m4", "msp430"):
        assert callable(board(name).bench) and callable(board(name).build_dir)
    with pytest.raises(SystemExit):
        demo.main(["--node", "no-such-board"])
    with pytest.raises(KeyError, match="known boards"):
        board("no-such-board")


# ---- the console command: tool commands are plug-ins ---------------------------------------
def _motebox(*args, code=None):
    exe = REPO / ".venv" / "bin" / "motebox"
    if code is not None:          # the same entry point, with a prelude in the process
        cmd = [sys.executable, "-c", code + "\nimport sys\nfrom motebox.cli import main\n"
               "sys.exit(main(sys.argv[1:]))", *args]
    else:
        cmd = [str(exe), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)


def test_tool_commands_through_the_console_script():
    p = _motebox("--help")
    assert p.returncode == 0 and all(c in p.stdout for c in ("keygen", "sim", "demo"))
    p = _motebox("sim", "m4", "--help")
    assert p.returncode == 0 and "--cycles" in p.stdout
    p = _motebox("demo", "--node", "host", "--readings", "16")
    assert p.returncode == 0 and "demo: OK" in p.stdout, p.stdout + p.stderr


def test_missing_tools_are_named():
    p = _motebox("no-such-command")
    assert p.returncode == 2 and "motebox[tools]" in p.stderr
    # a tools dependency that cannot be imported: the command says what to install
    p = _motebox("sim", "m4", "fw.elf", code="import sys; sys.modules['capstone'] = None")
    assert p.returncode == 1 and "capstone" in p.stderr and "motebox[tools]" in p.stderr
