# SPDX-License-Identifier: MIT
"""The library's shape, checked on the built archives and on the sources.

- Symbols: every global symbol defined in every built libmotebox.a (host r16/r32/r64,
  each Cortex-M4 and MSP430 variant) starts with mb_, so the library links beside
  ref10/TweetNaCl-derived code; every function declared in include/motebox.h is defined
  in each of them. The archives are read with pyelftools (one reader for x86-64, Arm and
  MSP430 objects); the builds are prerequisites of `make test`, so a missing archive is
  a failure, not a skip.
- Includes: no #include cycle in src/, sim/ or arch/, and the layering of docs/DESIGN.md:
  a file in src/<layer>/ includes only its own layer and those below
  (util < field < curve, util < sym, proto above all; include/motebox.h everywhere).
  The checkers are run on synthetic graphs too, so that they are seen to fail."""
import io
import re
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from conftest import BUILD, REPO

# The variants the build always produces (mk/: host radixes, M4 portable and -asm, MSP430).
REQUIRED_ARCHIVES = ["host/r16", "host/r25", "host/r32", "host/r64",
                     "m4/O2", "m4/Os", "m4/O2-asm", "m4/Os-asm",
                     "msp430/O2", "msp430/Os"]


def archives():
    found = {str(p.parent.relative_to(BUILD)) for pat in ("host/*/libmotebox.a",
                                                          "host/libmotebox.a",
                                                          "m4/*/libmotebox.a",
                                                          "msp430/*/libmotebox.a")
             for p in BUILD.glob(pat)}
    return sorted(set(REQUIRED_ARCHIVES) | found)


def ar_members(data):
    """(name, bytes) of each member of a System V / GNU ar archive."""
    assert data[:8] == b"!<arch>\n", "not an ar archive"
    pos, longnames = 8, b""
    while pos + 60 <= len(data):
        hdr = data[pos:pos + 60]
        name, size = hdr[:16].decode().rstrip(), int(hdr[48:58])
        body = data[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name in ("/", "/SYM64/", "__.SYMDEF"):       # symbol index
            continue
        if name == "//":                                 # long-name table
            longnames = body
            continue
        if name.startswith("/") and name[1:].isdigit():
            off = int(name[1:])
            name = longnames[off:longnames.index(b"/\n", off)].decode()
        yield name.rstrip("/"), body


def defined_globals(obj):
    """Names of the global and weak symbols an ELF object defines."""
    elf = ELFFile(io.BytesIO(obj))
    names = set()
    for sec in elf.iter_sections():
        if sec["sh_type"] != "SHT_SYMTAB":
            continue
        for s in sec.iter_symbols():
            if (s["st_info"]["bind"] in ("STB_GLOBAL", "STB_WEAK")
                    and s["st_shndx"] != "SHN_UNDEF" and s.name):
                names.add(s.name)
    return names


def api_functions():
    """The functions include/motebox.h declares (comments and macros stripped)."""
    text = (REPO / "include" / "motebox.h").read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    return set(re.findall(r"\b(mb_\w+)\s*\(", text))


def test_api_parser_finds_the_api():
    api = api_functions()
    assert {"mb_x25519", "mb_box_open", "mb_p256_ecdh", "mb_wipe",
            "mb_box_stream_update"} <= api
    assert "mb_read_fn" not in api and "mb_box_stream" not in api


def test_ar_reader_on_a_synthetic_archive():
    """Long names (GNU "//" table), odd sizes (padding) and the symbol index."""
    def member(name, body):
        hdr = (name.ljust(16) + "0".ljust(12) + "0".ljust(6) * 2 + "644".ljust(8)
               + str(len(body)).ljust(10) + "`\n")
        return hdr.encode() + body + (b"\n" if len(body) & 1 else b"")
    longnames = b"a_rather_long_member_name.o/\n"
    data = (b"!<arch>\n" + member("/", b"\0\0\0\0") + member("//", longnames)
            + member("short.o/", b"abc") + member("/0", b"defg"))
    assert list(ar_members(data)) == [("short.o", b"abc"),
                                      ("a_rather_long_member_name.o", b"defg")]


@pytest.mark.parametrize("variant", archives())
def test_archive_symbols_are_namespaced(variant):
    lib = BUILD / variant / "libmotebox.a"
    assert lib.is_file(), f"{lib} missing: run make (host-all, m4, msp430) first"
    defined, members = set(), 0
    for name, body in ar_members(lib.read_bytes()):
        if body[:4] != b"\x7fELF":
            continue
        members += 1
        defined |= defined_globals(body)
    assert members > 10, f"{lib}: only {members} objects"
    unprefixed = sorted(n for n in defined if not n.startswith("mb_"))
    assert unprefixed == [], f"{variant}: global symbols without the mb_ prefix"
    missing = sorted(api_functions() - defined)
    assert missing == [], f"{variant}: API functions not defined"


# ---- includes ---------------------------------------------------------------------------

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# The include path of the builds, after the file's own folder: -Isrc -Iinclude, and the
# board folders (-Iplatforms, -Iplatforms/<board>: arch/ files include their board.h).
SEARCH = ([REPO / "src", REPO / "include", REPO / "platforms"]
          + sorted(d for d in (REPO / "platforms").glob("*") if d.is_dir()))
LAYER_ALLOWS = {                                    # a layer -> what it may include
    "util": {"util"},
    "field": {"util", "field"},
    "curve": {"util", "field", "curve"},
    "sym": {"util", "sym"},
    "proto": {"util", "field", "curve", "sym", "proto"},
}


def include_graph(roots):
    """{file: [included files]} over the C, header, assembly and .inc files under roots;
    quoted includes resolve against the file's folder, then SEARCH."""
    graph, unresolved = {}, []
    for root in roots:
        for f in sorted(root.rglob("*")):
            if f.suffix not in (".c", ".h", ".S", ".inc") or not f.is_file():
                continue
            deps = []
            for name in INCLUDE_RE.findall(f.read_text(errors="replace")):
                for d in [f.parent] + SEARCH:
                    if (d / name).is_file():
                        deps.append((d / name).resolve())
                        break
                else:
                    unresolved.append(f"{f.relative_to(REPO)}: {name}")
            graph[f.resolve()] = deps
    return graph, unresolved


def find_cycle(graph):
    """One include cycle as a list of nodes (first == last), or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in graph.get(n, ()):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def layer_of(path, src):
    """The src/ layer of path, 'api' for include/, None outside both."""
    try:
        return path.relative_to(src).parts[0]
    except ValueError:
        return "api" if path.parent.name == "include" else None


def layer_violations(graph, src):
    bad = []
    for f, deps in graph.items():
        lf = layer_of(f, src)
        if lf not in LAYER_ALLOWS:
            continue
        for d in deps:
            ld = layer_of(d, src)
            if ld != "api" and ld not in LAYER_ALLOWS[lf]:
                bad.append(f"{f.relative_to(src)} includes {d.relative_to(src) if ld else d}")
    return bad


def test_cycle_checker_on_synthetic_graphs():
    a, b, c, d = map(Path, ("/a.h", "/b.h", "/c.h", "/d.h"))
    assert find_cycle({a: [b], b: [c], c: [d], d: []}) is None
    assert find_cycle({a: [b, c], b: [d], c: [d], d: []}) is None      # a diamond
    assert find_cycle({a: [b], b: [c], c: [a]}) == [a, b, c, a]
    assert find_cycle({a: [a]}) == [a, a]
    assert find_cycle({d: [], a: [b], b: [c], c: [b]}) == [b, c, b]


def test_layer_checker_on_synthetic_graphs():
    src = Path("/r/src")
    f = {k: src / k for k in ("util/ct.h", "field/fe.h", "field/fe.c", "curve/x.h",
                               "sym/s.h", "proto/p.c")}
    api = Path("/r/include/motebox.h")
    good = {f["field/fe.c"]: [f["field/fe.h"], f["util/ct.h"], api],
            f["proto/p.c"]: [f["curve/x.h"], f["sym/s.h"]], f["util/ct.h"]: [api]}
    assert layer_violations(good, src) == []
    assert layer_violations({f["field/fe.c"]: [f["curve/x.h"]]}, src) == \
        ["field/fe.c includes curve/x.h"]
    assert layer_violations({f["sym/s.h"]: [f["field/fe.h"]]}, src) == \
        ["sym/s.h includes field/fe.h"]
    assert layer_violations({f["util/ct.h"]: [f["proto/p.c"]]}, src) == \
        ["util/ct.h includes proto/p.c"]


def test_no_include_cycles_and_layers_respected():
    roots = [REPO / "src", REPO / "sim", REPO / "arch", REPO / "include"]
    graph, unresolved = include_graph([r for r in roots if r.is_dir()])
    assert len(graph) > 30
    assert unresolved == [], "quoted includes that resolve to no file"
    cycle = find_cycle(graph)
    assert cycle is None, "include cycle: " + " -> ".join(str(p.relative_to(REPO)) for p in cycle)
    assert layer_violations(graph, (REPO / "src").resolve()) == []
