#!/usr/bin/env python3
"""Headless scripts of the lab: `make bench` runs it after the suites.

Usage: headless_bench.py TETHER_LAB [RUNS]

Writes key scripts under Benchmarks/.build/headless and times `TETHER_LAB --headless --script`
over each, RUNS times (3 by default), in turns:
  - 1,000 visits of the orientation scenario (`1 Esc wait:400`), bound,
  - the same 1,000 visits in leaky mode (`m` first), each leaving a leak behind,
  - random mixed scripts of 1,000, 4,000 and 16,000 keys drawn from the keys of the lab's fuzz
    test and `m` (every scenario in both modes, their own keys, the inspector's, help, waits),
    one seed, so the longer ones start as the shorter ones do.
Each figure is the median of the runs, wall and CPU time (user + system). The targets: leaky
visits within 4x the bound ones, and a script's time linear in its keys (the time a key of the
16,000-key script within 1.5x a key's of the 1,000-key one). A report, not a gate: the exit
status is non-zero only when a command fails.
"""

import os
import random
import resource
import statistics
import subprocess
import sys
import time

VISITS = 1_000
RANDOM_SIZES = [1_000, 4_000, 16_000]
TARGET_LEAKY_RATIO = 4.0
TARGET_PER_KEY_RATIO = 1.5

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "Benchmarks", ".build", "headless")

# The keys of the lab's own fuzz test, and `m`: every scenario, the inspector, help, waits.
POOL = (
    "1 2 3 4 5 6 7 8 r i ? Esc Up Down j k Enter Tab Space Left Right PageDown Home x 0 "
    "Backspace F1 n p b u d o c m wait:0 wait:50 wait:350"
).split()


def write(name, text):
    path = os.path.join(DIR, name + ".keys")
    with open(path, "w") as f:
        f.write(text)
    return path


def scripts():
    os.makedirs(DIR, exist_ok=True)
    visits = "\n".join(["1 Esc wait:400"] * VISITS) + "\n"
    made = [
        ("bound visits", VISITS * 3, write("bound-visits", visits)),
        ("leaky visits", VISITS * 3 + 1, write("leaky-visits", "m\n" + visits)),
    ]
    rng = random.Random(46)
    keys = [rng.choice(POOL) for _ in range(max(RANDOM_SIZES))]
    for size in RANDOM_SIZES:
        lines = [" ".join(keys[i : i + 20]) for i in range(0, size, 20)]
        made.append((f"random {size:,}", size, write(f"random-{size}", "\n".join(lines) + "\n")))
    return made


def run_once(lab, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([lab, "--headless", "--script", path], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lab = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    made = scripts()
    samples = {name: [] for name, _, _ in made}
    for _ in range(runs):
        for name, _, path in made:
            samples[name].append(run_once(lab, path))
    figures = {}
    print(f"{'script':<16} {'keys':>7} {'wall s':>8} {'cpu s':>8} {'ms/key':>8}")
    for name, keys, _ in made:
        wall = statistics.median(s[0] for s in samples[name])
        cpu = statistics.median(s[1] for s in samples[name])
        figures[name] = (keys, wall, cpu)
        print(f"{name:<16} {keys:>7,} {wall:>8.2f} {cpu:>8.2f} {1000 * cpu / keys:>8.3f}")
    leaky = figures["leaky visits"][2] / figures["bound visits"][2]
    print(f"leaky ÷ bound visits (cpu): {leaky:.2f} (target ≤ {TARGET_LEAKY_RATIO})")
    small, large = figures[f"random {RANDOM_SIZES[0]:,}"], figures[f"random {RANDOM_SIZES[-1]:,}"]
    per_key = (large[2] / large[0]) / (small[2] / small[0])
    print(
        f"a key of random {RANDOM_SIZES[-1]:,} ÷ a key of random {RANDOM_SIZES[0]:,} (cpu): "
        f"{per_key:.2f} (target ≤ {TARGET_PER_KEY_RATIO})"
    )


if __name__ == "__main__":
    main()
