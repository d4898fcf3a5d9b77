#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Doxygen INPUT_FILTER for include/motebox.h (docs/Doxyfile): reads the header's own
comment conventions, so the header keeps plain C comments and `make docs` still gets
an API reference with one page (group) per section.

Conventions read (line numbers are kept: the output has as many lines as the input):
- the second comment of the file (after the SPDX line) is the file's description;
- a banner `/* ---- Title ---- */` (possibly continued by ` * text` lines) opens a
  group named after Title, its text the group's description; the next banner or the
  end of the file closes it;
- a comment directly followed by declarations documents them: one declaration gets it
  as its own; several (e.g. mb_verify16 and mb_verify32) share it (a member group);
  before a run of #defines it documents the first one;
- a trailing `/* text */` after a #define or a struct field documents that line;
- in the "sizes" section, a #define without its own comment is documented as a size
  in bytes (the banner says so);
- any other comment (standalone, followed by a blank line) stays invisible.
Usage: doxygen_filter.py FILE (prints the filtered text)."""
import re
import sys

BANNER = re.compile(r"^/\* -{2,} (?P<title>.*?)\s*-*\s*(?P<end>\*/)?\s*$")


def slug(title):
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "_".join(words[:3]) or "section"


def comment_end(lines, i):
    """Index of the line that closes the comment opened on line i."""
    j = i
    while "*/" not in lines[j]:
        j += 1
    return j


def declarations_after(lines, j):
    """How many declarations follow line j directly (up to a blank line or a comment)."""
    n, depth, k = 0, 0, j + 1
    while k < len(lines) and lines[k].strip() and not lines[k].lstrip().startswith("/*"):
        text = re.sub(r"/\*.*?\*/", "", lines[k])
        if text.lstrip().startswith("#"):
            n += 1 if text.lstrip().startswith("#define") else 0
        else:
            for ch in text:
                depth += ch == "{"
                depth -= ch == "}"
                if ch == ";" and depth == 0:
                    n += 1
        k += 1
    return n, k - 1


def filter_text(text):
    lines = text.split("\n")
    out = list(lines)
    group = None            # slug of the open group
    section = ""
    seen_file_doc = False
    shared_until = -1       # last line of a member group documented by one comment
    i = 0
    while i < len(lines):
        line = lines[i]
        m = BANNER.match(line)
        if m:
            close = ""
            if group:     # close the previous group on the blank line above, if any
                if i > 0 and not out[i - 1].strip():
                    out[i - 1] = "/** @} */"
                else:
                    close = "/** @} */ "
            title = m["title"].rstrip(" -")
            group, section = slug(title), title
            j = i if m["end"] else comment_end(lines, i)
            # The title runs to the end of its line: the group opens in a comment of its own.
            out[i] = f"{close}/** @defgroup {group} {title}"
            if m["end"]:
                out[i] += " */ /** @{ */"
            else:
                out[j] = out[j].replace("*/", "*/ /** @{ */", 1)
            i = j + 1
            continue
        if line.startswith("/*") and "SPDX-License-Identifier" not in line:
            j = comment_end(lines, i)
            if not seen_file_doc:
                seen_file_doc = True
                out[i] = "/** @file" + line[2:]
                i = j + 1
                continue
            n, last = declarations_after(lines, j)
            if lines[j + 1].lstrip().startswith("#"):
                n = min(n, 1)     # before #defines: documents the first one only
            if n >= 1:
                out[i] = "/**" + line[2:]
                if n > 1:         # one comment for several: a member group sharing it
                    out[i] = "/**@{*/ " + out[i]
                    out[last] = out[last] + " /**@}*/"
                    shared_until = last
            i = j + 1
            continue
        stripped = line.lstrip()
        if not stripped.startswith("/*") and re.search(r"\S.*/\* (?!\*)", line):
            if stripped.startswith("#define") or re.match(r"\s+\w[\w\s\*]*\[?\w*\]?;", line):
                out[i] = re.sub(r"/\* (?!\*)", "/**< ", line, count=1)
        elif (stripped.startswith("#define") and section.lower().startswith("sizes")
              and "/*" not in line and i > shared_until):
            out[i] = line + "  /**< bytes */"
        i += 1
    if group:
        for k in range(len(out) - 1, -1, -1):
            if out[k].startswith("#endif"):
                out[k] = "/** @} */ " + out[k]
                break
    return "\n".join(out)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(filter_text(f.read()))
