#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fuzz the writable files of /proc/latency_tracker/*/ (guest side).

fuzz_procfs.py SEED WRITES SECONDS DIR...

For every writable file of every DIR: every adversarial write() call
(very long lines, numbers at and beyond every limit, signs, whitespace and
NUL variants, partial writes at an offset), then random ones (random
bytes, digits and separators, numbers near the limits) up to WRITES calls
in all per file, within SECONDS for the whole run (each file its share,
in turn): the adversarial cases always run, the random ones fill the
budget, so host load shortens the random part instead of failing the run.
Oracle, per write:
  - refused  -> the value read back is unchanged;
  - accepted -> the payload was strict decimal ("0" or digits without a
    leading zero, at most one trailing newline), written whole, and the
    value read back is that number;
  - a strict decimal inside the contract's bounds, at most WRITE_MAX bytes
    long (20 digits and a newline), is accepted;
  - a write at a nonzero offset is refused (procfs knobs are not seekable).
Prints one TAP line per file; the seed replays a run.  Restores the
original values at the end.
"""
import errno
import os
import random
import re
import sys
import time

STRICT = re.compile(rb"\A(0|[1-9][0-9]*)\n?\Z")
WRITE_MAX = 21  # the longest write a knob takes: 20 digits of 2^64-1 + '\n'
S = 10**9
# Contract bounds of the core's knobs (see tracker/params.c): (min, max, zero_ok)
BOUNDS = {
    "threshold": (1, 1000 * S, False),
    "timeout": (10**6, 1000 * S, True),
    "wakeup_interval": (0, 60 * S, True),
    "enable": (0, 1, True),
}
LIMITS = [0, 1, 2, 10**6 - 1, 10**6, 10**6 + 1, 60 * S - 1, 60 * S, 60 * S + 1,
          1000 * S - 1, 1000 * S, 1000 * S + 1, 2**31 - 1, 2**31, 2**32 - 1,
          2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1, 10**20, 10**30]


def read_value(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, payload, offset=0):
    """One write() call; returns (ok, errno)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        if offset:
            n = os.pwrite(fd, payload, offset)
        else:
            n = os.write(fd, payload)
        return (n == len(payload), 0 if n == len(payload) else -1)
    except OSError as e:
        return (False, e.errno)
    finally:
        os.close(fd)


def cases(rng, count, deadline):
    """Yield (payload, offset) pairs: the fixed ones, then random ones
    until COUNT in all or the DEADLINE (time.monotonic())."""
    fixed = [b"", b"\n", b"\n\n", b"abc", b"-5", b"+5", b" 5", b"5 ", b"\t5",
             b"5\t", b"5\n\n", b"5\n5", b"5x", b"0x10", b"5\x00", b"\x005",
             b"1e9", b"1.5", b"\xff", b"0000000000000000000000000007",
             b"9" * 21, b"1" * 4096, b"1" * 70000]
    for v in LIMITS:
        fixed += [str(v).encode(), str(v).encode() + b"\n", b"-" + str(v).encode()]
    for p in fixed:
        yield p, 0
    for p in (b"5", b"12\n"):
        yield p, 1  # a write that does not start at offset 0
    alphabet = b"0123456789\n -+x\x00\t"
    for _ in range(max(0, count - len(fixed) - 2)):
        if time.monotonic() > deadline:
            return
        kind = rng.randrange(4)
        if kind == 0:
            n = rng.randrange(0, 48)
            yield bytes(rng.randrange(256) for _ in range(n)), 0
        elif kind == 1:
            n = rng.randrange(0, 24)
            yield bytes(rng.choice(alphabet) for _ in range(n)), 0
        elif kind == 2:
            v = rng.choice(LIMITS) + rng.randrange(-2, 3)
            yield str(max(v, 0)).encode() + rng.choice([b"", b"\n"]), 0
        else:
            yield str(rng.randrange(0, 2 * 60 * S)).encode() + rng.choice([b"", b"\n"]), 0


def in_bounds(name, v):
    if name not in BOUNDS:
        return None
    lo, hi, zero_ok = BOUNDS[name]
    return (v == 0 and zero_ok) or lo <= v <= hi


# Writable files that are not numeric knobs: test-only controls.
NOT_KNOBS = {"ctl"}
# Knobs where an empty write is valid: it clears the filter ("empty = all").
EMPTY_OK = {"filter_tgid", "filter_cgroup", "filter_dev"}
# Filters whose values are not one number: what an accepted write must
# look like; it reads back as written (less one trailing newline).
TEXT_KNOBS = {
    "filter_cgroup": re.compile(rb"\A/[^\n\x00]*\n?\Z"),
    "filter_dev": re.compile(rb"\A[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*\n?\Z"),
    "filter_tgid": re.compile(rb"\A[1-9][0-9]*(,[1-9][0-9]*)+\n?\Z"),
}


def fuzz_file(path, rng, count, deadline):
    name = os.path.basename(path)
    original = read_value(path)
    problems = []
    n = 0
    for payload, offset in cases(rng, count, deadline):
        if name == "enable" and rng.randrange(8) == 0:
            write(path, b"1")  # keep tracking on most of the time
        before = read_value(path)
        ok, err = write(path, payload, offset)
        after = read_value(path)
        n += 1
        strict = bool(STRICT.match(payload)) and offset == 0
        if name in EMPTY_OK and payload in (b"", b"\n") and offset == 0:
            if not ok or after.strip() != b"":
                problems.append(f"empty write to {name}: ok={ok}, reads {after!r}")
            continue
        text = TEXT_KNOBS.get(name)
        if ok and offset == 0 and text and text.match(payload):
            if after != payload.rstrip(b"\n") + b"\n":
                problems.append(f"accepted {payload[:40]!r} but reads back {after!r}")
            continue
        if not ok:
            if after != before:
                problems.append(f"refused {payload[:40]!r}@{offset} (errno {err}) "
                                f"but value changed {before!r} -> {after!r}")
            elif err not in (errno.EINVAL, errno.ERANGE, errno.ESPIPE):
                problems.append(f"refused {payload[:40]!r} with errno {err}")
            if strict and len(payload) <= WRITE_MAX and in_bounds(name, int(payload)):
                problems.append(f"refused in-bounds value {payload!r}")
        else:
            if offset:
                problems.append(f"accepted a write at offset {offset}")
            elif not strict:
                problems.append(f"accepted non-strict {payload[:40]!r}")
            elif int(after.strip() or b"-1") != int(payload):
                problems.append(f"accepted {payload!r} but reads back {after!r}")
            elif in_bounds(name, int(payload)) is False:
                problems.append(f"accepted out-of-bounds {payload!r}")
        if len(problems) >= 5:
            break
    ok, _ = write(path, original)
    if not ok or read_value(path) != original:
        problems.append(f"could not restore {original!r}")
    return n, problems


def main():
    sys.set_int_max_str_digits(0)  # payloads of 70000 digits are parsed too
    seed, count, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    dirs = sys.argv[4:]
    print(f"# seed {seed} (replay: fuzz_procfs.py {seed} {count} {secs:g} ...)")
    rng = random.Random(seed)
    paths = []
    for d in dirs:
        for f in sorted(os.listdir(d)):
            path = os.path.join(d, f)
            if os.stat(path).st_mode & 0o200 and f not in NOT_KNOBS:
                paths.append(path)
    start = time.monotonic()
    failed = 0
    for t, path in enumerate(paths, 1):
        deadline = start + secs * t / len(paths)
        n, problems = fuzz_file(path, rng, count, deadline)
        status = "ok" if not problems else "not ok"
        failed += bool(problems)
        print(f"{status} {t} - {path}: {n} writes, refused ones left it unchanged")
        for p in problems:
            print(f"#   {p}")
    print(f"1..{len(paths)}")
    return 1 if failed or not paths else 0


if __name__ == "__main__":
    sys.exit(main())
