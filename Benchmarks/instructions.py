#!/usr/bin/env python3
"""Prints instructions per operation (valgrind's callgrind) for every Tether pair of `make bench`.

The clock's ratios move with the CPU; instructions do not. Compare this table with the one in
Benchmarks/README.md to tell a change in the code from a change of machine: a pair whose Tether
side gained instructions changed in the code.

Beside the instructions it counts the calls to the runtime's retains and releases: each, unless
its reference is nil (then it returns at once), is an atomic read-modify-write: 2.3 ns on one
CPU, 4.8 ns (twenty plain adds) on another (Benchmarks/README.md, "Runs 15 and 16"; `make bench`
prints what it costs on yours), so a pair can gain time there without gaining many instructions.

Each figure is (run of 2N − run of N) / N of `tether-bench-profile CASE MODE N`, so start-up and
set-up cancel out. It runs a `strip -g` copy of the binary (debug info changes nothing callgrind
counts, and it loads faster).

Usage: instructions.py PATH/TO/tether-bench-profile       (`make instructions` builds it first)
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

# (pair, case, extra arguments after the count, N, modes): the first mode is the alternative,
# `raw` but for the served and reported pairs, whose alternative is the same code with the ledger
# on and watched by none (`ledger-on`), and the threads pair, whose alternative is the ledger
# off. Task exit's pair is a latency, made of waking a parked task: not counted here.
CASES = [
    ("bind and end one subscription", "bind-and-end", [], 10_000, ["raw", "ledger-on", "ledger-off"]),
    ("bind and end on 8 threads, one ledger", "threads", ["8"], 8_000, ["ledger-off", "ledger-on"]),
    ("bind and end, ledger served to no client", "bind-and-end", [], 10_000, ["ledger-on", "served"]),
    ("bind and end, ledger reported through swift-metrics", "bind-and-end", [], 10_000,
     ["ledger-on", "reported"]),
    ("1 value, 1 subscriber: bound sink", "bound-sink", ["1"], 10_000, ["raw", "ledger-on"]),
    ("1 value, 1 subscriber: fuse", "fuse", ["1"], 10_000, ["raw", "ledger-on"]),
    ("1 value, 100 subscribers: bound sink", "bound-sink", ["100"], 200, ["raw", "ledger-on"]),
    ("1 value, 100 subscribers: fuse", "fuse", ["100"], 200, ["raw", "ledger-on"]),
    ("LiveData publish to 100, bags track them", "livedata", [], 200, ["raw", "ledger-on", "ledger-off"]),
    ("LiveData publish to 100 held weakly", "livedata-weak", [], 200, ["raw", "ledger-on", "ledger-off"]),
    ("@Observed set, 10 .did observers", "observed", [], 200, ["raw", "ledger-on", "ledger-off"]),
    ("asyncSink, per value", "asyncsink", [], 1_000, ["raw", "ledger-on"]),
    ("bind and end with a task: a bare Task, named, then Tether's", "task-names", [], 2_000,
     ["unnamed", "named", "tether"]),
    ("a loop per element: for await in a stored Task, forEach(boundTo:)", "foreach", [], 10_000,
     ["raw", "ledger-on"]),
]


# The runtime's reference counting: `swift_retain`, `swift_release`, their `_n` forms, and the
# bridged and unknown-object variants (callgrind names a function in a call cycle `NAME'2`).
REFCOUNTING = re.compile(r"swift_(retain|release|bridgeObjectRetain|bridgeObjectRelease|unknownObjectRetain"
                         r"|unknownObjectRelease)(_n)?('\d+)?$")


def measure(binary, case, mode, count, extra):
    """Instructions, and calls to the runtime's retains and releases, that callgrind counts for one run."""
    with tempfile.TemporaryDirectory() as directory:
        out = os.path.join(directory, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, case, mode,
             str(count), *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return read_profile(out)


def read_profile(path):
    """The total of instructions, and the calls made to reference-counting functions."""
    names, total, calls, callee = {}, None, 0, None
    with open(path) as file:
        for line in file:
            found = re.match(r"(summary|totals): (\d+)", line)
            if found:
                total = int(found.group(2))
                continue
            # Callgrind names a function once, where it first appears (as `fn=` or `cfn=`), and
            # by its number after that.
            found = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
            if found:
                if found.group(3):
                    names[found.group(2)] = found.group(3).strip()
                if found.group(1):
                    callee = names.get(found.group(2), "")
                continue
            found = re.match(r"calls=(\d+)", line)
            if found and callee is not None:
                if REFCOUNTING.search(callee.split(" ")[0]):
                    calls += int(found.group(1))
                callee = None
    if total is None:
        sys.exit(f"instructions.py: callgrind wrote no total in {path}")
    return total, calls


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as directory:
        binary = os.path.join(directory, "tether-bench-profile")
        subprocess.run(["strip", "-g", sys.argv[1], "-o", binary], check=True)
        print("Instructions per operation (callgrind), and in brackets its retains and releases: "
              "alternative, then Tether")
        for pair, case, extra, count, modes in CASES:
            figures = []
            for mode in modes:
                once = measure(binary, case, mode, count, extra)
                twice = measure(binary, case, mode, 2 * count, extra)
                instructions = round((twice[0] - once[0]) / count)
                refcounting = (twice[1] - once[1]) / count
                figures.append(f"{mode} {instructions:,} ({refcounting:,.0f})")
            print(f"  {pair}: " + ", ".join(figures), flush=True)


if __name__ == "__main__":
    main()
