#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_outputs.py - the host tests' check of the tools' text outputs.

  check_outputs.py json FILE [HEX...]
      Every line of FILE parses with Python's json; FILE is valid UTF-8;
      every HEX (the bytes of a name, in hex) is found inside a string of
      the output once decoded as tools/lib/lt_json.h says (surrogateescape).
  check_outputs.py dot FILE [HEX...]
      FILE is valid UTF-8; its quoted strings are well formed; every HEX
      is found in a label once decoded as tools/lib/lt_dot.h says
      (Graphviz escapes, &amp;, then \\xHH); `dot -Tsvg` (when installed)
      reads FILE without a warning.
  check_outputs.py svg FILE [HEX...]
      FILE is valid UTF-8 and well-formed XML (xml.etree), an SVG; every
      HEX is exactly the name (data-n) of one of its flame graph frames
      (tools/lib/lt_flamesvg.h).

Exit 0 when all holds; else one line per problem ("# ...", TAP comments)
on stdout, exit 1.
"""
import json
import re
import shutil
import subprocess
import sys

problems = []


def strings_of(v):
    """Every string (keys too) inside a parsed JSON value."""
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings_of(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings_of(x)


def check_json(data):
    found = []
    # Lines end at "\n" only (str.splitlines() would also cut at U+2028).
    for no, raw in enumerate(data.split(b"\n"), 1):
        if not raw:
            continue
        line = raw.decode("utf-8", "replace")
        try:
            v = json.loads(line)
        except ValueError as e:
            problems.append(f"line {no}: not JSON ({e}): {line[:200]!r}")
            continue
        found += [s.encode("utf-8", "surrogateescape") for s in strings_of(v)]
    return found


DOT_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)
SHOWN_ESCAPE = re.compile(rb"\\x([0-9a-f]{2})")


def dot_shown(s):
    """What Graphviz shows for the text of a quoted DOT string."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            out.append({"n": "\n", "l": "\n", "r": "\n"}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out).replace("&amp;", "&")


def check_dot(data, path):
    text = data.decode("utf-8")
    found = []
    for m in DOT_STRING.finditer(text):
        raw = m.group(1)
        if "\n" in raw:
            problems.append(f"a raw newline inside a DOT string: {raw[:80]!r}")
        shown = dot_shown(raw).encode("utf-8")
        if re.search(rb"\\(?!x[0-9a-f]{2})", shown):
            problems.append(f"a backslash shown that is not \\xHH: {shown[:80]!r}")
        found.append(SHOWN_ESCAPE.sub(lambda x: bytes([int(x.group(1), 16)]), shown))
    if shutil.which("dot"):
        r = subprocess.run(["dot", "-Tsvg", path], capture_output=True)
        if r.returncode or r.stderr:
            problems.append(f"dot -Tsvg: exit {r.returncode}: {r.stderr.decode(errors='replace')[:300]}")
    return found


def check_svg(data):
    import xml.etree.ElementTree as ET
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        problems.append(f"not well-formed XML: {e}")
        return []
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        problems.append(f"the root is {root.tag}, not an SVG")
    return [e.get("data-n").encode("utf-8") for e in root.iter()
            if e.get("data-n") is not None]


def main():
    mode, path, want = sys.argv[1], sys.argv[2], sys.argv[3:]
    data = open(path, "rb").read()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append(f"{path}: not valid UTF-8: {e}")
        data = data.decode("utf-8", "replace").encode()
    if mode == "svg":
        found = check_svg(data)
    else:
        found = check_json(data) if mode == "json" else check_dot(data, path)
    for h in want:
        b = bytes.fromhex(h)
        if not any(b == s if mode == "svg" else b in s for s in found):
            problems.append(f"{path}: {b!r} not found in any string")
    for p in problems:
        print("# " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
