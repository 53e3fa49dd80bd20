#!/usr/bin/env python3
"""Prints instructions per operation (valgrind's callgrind) for every Tether pair of `make bench`.

The clock's ratios move with the CPU; instructions do not. Compare this table with the one in
Benchmarks/README.md to tell a change in the code from a change of machine: a pair whose Tether
side gained instructions changed in the code.

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

# (pair, case, extra arguments after the count, N, modes): the alternative is `raw`.
CASES = [
    ("bind and end one subscription", "bind-and-end", [], 10_000, ["raw", "ledger-on", "ledger-off"]),
    ("1 value, 1 subscriber: bound sink", "bound-sink", ["1"], 10_000, ["raw", "ledger-on"]),
    ("1 value, 1 subscriber: fuse", "fuse", ["1"], 10_000, ["raw", "ledger-on"]),
    ("1 value, 100 subscribers: bound sink", "bound-sink", ["100"], 200, ["raw", "ledger-on"]),
    ("1 value, 100 subscribers: fuse", "fuse", ["100"], 200, ["raw", "ledger-on"]),
    ("LiveData publish to 100, bags track them", "livedata", [], 200, ["raw", "ledger-on", "ledger-off"]),
    ("LiveData publish to 100 held weakly", "livedata-weak", [], 200, ["raw", "ledger-on", "ledger-off"]),
    ("@Observed set, 10 .did observers", "observed", [], 200, ["raw", "ledger-on", "ledger-off"]),
    ("asyncSink, per value", "asyncsink", [], 1_000, ["raw", "ledger-on"]),
]


def instructions(binary, case, mode, count, extra):
    """Instructions callgrind counts for one run."""
    with tempfile.TemporaryDirectory() as directory:
        out = os.path.join(directory, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, case, mode,
             str(count), *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        with open(out) as file:
            for line in file:
                found = re.match(r"(summary|totals): (\d+)", line)
                if found:
                    return int(found.group(2))
    sys.exit(f"instructions.py: callgrind wrote no total for {case} {mode}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as directory:
        binary = os.path.join(directory, "tether-bench-profile")
        subprocess.run(["strip", "-g", sys.argv[1], "-o", binary], check=True)
        print("Instructions per operation (callgrind): alternative, then Tether")
        for pair, case, extra, count, modes in CASES:
            figures = []
            for mode in modes:
                once = instructions(binary, case, mode, count, extra)
                twice = instructions(binary, case, mode, 2 * count, extra)
                per_operation = round((twice - once) / count)
                figures.append(f"{mode} {per_operation:,}")
            print(f"  {pair}: " + ", ".join(figures), flush=True)


if __name__ == "__main__":
    main()
