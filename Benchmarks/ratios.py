#!/usr/bin/env python3
"""Prints Tether ÷ alternative for every benchmark pair of the Performance issue.

Reads package-benchmark's influx export (`--format influx`), which holds, per benchmark and
metric, the raw percentiles of one measured iteration (nanoseconds, or a malloc count). A
measured iteration may do many operations (`scalingFactor`); OPS below says how many, so the
report is per operation. Ratios compare like with like, so they do not depend on OPS.

The targets apply to the ledger-on figures (what users run); ledger-off figures are shown beside
them. A pair with a side that was not run (`BENCH_ARGS="--filter …"`) says so. Exit status is 0
unless an export is missing or empty (or, with --in-turns, a pair's line never came): this is a
report, not a gate.

Time ratios are judged on p0, each side's fastest measured iteration. A slow spell of the machine
only adds time, and on the 2-core VMs this was measured on it can last seconds: three processes
of the 100-subscriber send read 1.73, 1.71 and 0.61 at p50 and 1.06, 1.06 and 1.07 at p0
(Benchmarks/README.md). A spell that lasts a whole process moves its p0 too. The p50 ratio follows
for context. A latency (task exit) is judged at its p99, a frame's own time at its p50, mallocs
at their p50.

Given several exports (`make bench` runs the suites BENCH_RUNS times, each benchmark in a process
of its own every time), each figure is the median over the runs, each ratio is the median of the
runs' own ratios and decides the verdict, and the runs' ratios follow; a time judged at p0 adds
"best": Tether's fastest iteration over the runs ÷ the alternative's, which a spell over one whole
process cannot move. (The best of a p50 or p99 would mean little, so it is not printed.)

With --in-turns, it reads `tether-bench-profile interleaved…` output on stdin instead, passes it
through, and adds the verdict of each pair below that the profile measured in turns with the
ledger on (IN_TURNS), against the same target: the targets are written here alone. A pair whose
two sides run the same code (JUDGED_IN_TURNS) is judged there alone.

Usage: ratios.py RESULTS.influx.csv [MORE_RESULTS.influx.csv …]
       tether-bench-profile interleaved ledger-on 300 | ratios.py --in-turns
"""

import csv
import statistics
import sys
from collections import defaultdict

# Operations per measured iteration (the benchmark's scalingFactor); 1 when not listed.
OPS = {
    "send/1 subscriber/OpenCombine sink": 1000,
    "send/1 subscriber/Tether sink(boundTo:)": 1000,
    "send/1 subscriber/Tether fuse": 1000,
    "publish/100 observers/closure array": 1000,
    "publish/100 observers/Tether LiveData": 1000,
    "publish/100 observers held weakly/weak boxes": 1000,
    "publish/100 observers held weakly/Tether LiveData": 1000,
    "set/10 observers/CurrentValueSubject": 1000,
    "set/10 observers/Observation re-tracking": 1000,
    "set/10 observers/Tether @Observed": 1000,
    "bind-and-end/1 subscription/OpenCombine sink+store+cancel": 1000,
    "bind-and-end/1 subscription/Tether DisposeBag": 1000,
    "per-value/1000 values/Task per value": 1000,
    "per-value/1000 values/Tether asyncSink": 1000,
    "serve/bind-and-end/no server": 1000,
    "serve/bind-and-end/server, no client": 1000,
    "bind-and-end/8 threads/Tether sink(boundTo:)": 8000,
    "bind-and-end/16 threads/Tether sink(boundTo:)": 16000,
}

# (label, Tether benchmark, alternative, checks).
# A check is (metric, percentile, kind, bound): kind "ratio" compares Tether ÷ alternative with
# bound; "below" asks for a ratio under 1; "absolute" compares Tether's own per-op time (ns).
PAIRS = [
    ("1 value, 1 subscriber: bound sink", "send/1 subscriber/Tether sink(boundTo:)",
     "send/1 subscriber/OpenCombine sink", [("time", 0, "ratio", 1.10)]),
    ("1 value, 1 subscriber: fuse", "send/1 subscriber/Tether fuse",
     "send/1 subscriber/OpenCombine sink", [("time", 0, "ratio", 1.10)]),
    ("1 value, 100 subscribers: bound sink", "send/100 subscribers/Tether sink(boundTo:)",
     "send/100 subscribers/OpenCombine sink", [("time", 0, "ratio", 1.10)]),
    ("1 value, 100 subscribers: fuse", "send/100 subscribers/Tether fuse",
     "send/100 subscribers/OpenCombine sink", [("time", 0, "ratio", 1.10)]),
    ("LiveData publish to 100 vs closures", "publish/100 observers/Tether LiveData",
     "publish/100 observers/closure array", [("time", 0, "ratio", 1.0)]),
    ("LiveData publish to 100 held weakly vs weak boxes", "publish/100 observers held weakly/Tether LiveData",
     "publish/100 observers held weakly/weak boxes", [("time", 0, "ratio", 1.0)]),
    ("LiveData publish to 100 vs NotificationCenter", "publish/100 observers/Tether LiveData",
     "publish/100 observers/NotificationCenter", [("time", 0, "below", 1.0)]),
    ("LiveData publish to 100 vs OpenCombine", "publish/100 observers/Tether LiveData",
     "send/100 subscribers/OpenCombine sink", [("time", 0, "below", 1.0)]),
    ("@Observed set, 10 observers vs CurrentValueSubject", "set/10 observers/Tether @Observed",
     "set/10 observers/CurrentValueSubject", [("time", 0, "below", 1.0)]),
    ("@Observed set, 10 observers vs Observation", "set/10 observers/Tether @Observed",
     "set/10 observers/Observation re-tracking", [("time", 0, "below", 1.0)]),
    ("bind and end one subscription", "bind-and-end/1 subscription/Tether DisposeBag",
     "bind-and-end/1 subscription/OpenCombine sink+store+cancel",
     [("time", 0, "ratio", 1.5), ("mallocs", 50, "ratio", 1.25)]),
    ("owner ends -> stored task's loop exits", "cancel-to-loop-exit/1 task/Tether Task.store(in:)",
     "cancel-to-loop-exit/1 task/Task.cancel", [("time", 99, "ratio", 2.0)]),
    ("asyncSink, per value", "per-value/1000 values/Tether asyncSink",
     "per-value/1000 values/Task per value", [("time", 0, "ratio", 2.0)]),
    # Many threads binding and ending on one ledger: both sides are Tether; the alternative is
    # the same loop with the ledger off.
    ("bind and end on 8 threads, one ledger: on vs off", "bind-and-end/8 threads/Tether sink(boundTo:)",
     "bind-and-end/8 threads/Tether sink(boundTo:) ledger off", [("time", 0, "ratio", 2.0)]),
    ("bind and end on 16 threads, one ledger: on vs off", "bind-and-end/16 threads/Tether sink(boundTo:)",
     "bind-and-end/16 threads/Tether sink(boundTo:) ledger off", [("time", 0, "ratio", 2.0)]),
    # Serving the ledger (TetherInspector): both sides are Tether with the ledger on; the
    # alternative is the same work in a process that serves nothing.
    ("bind and end, served with no client vs not served", "serve/bind-and-end/server, no client",
     "serve/bind-and-end/no server ledger on", [("time", 0, "ratio", 1.02)]),
    ("bind and end at 10,000/s, client attached vs not served",
     "serve/bind-and-end at 10,000 a second/client attached",
     "serve/bind-and-end at 10,000 a second/no server ledger on",
     [("time", 50, "none", 0), ("time", 99, "none", 0)]),
    # Reporting the ledger through swift-metrics (TetherMetrics) to a Prometheus registry: both
    # sides are Tether with the ledger on; the alternative is the same work with no reporter.
    ("bind and end at 10,000/s, reporting metrics vs not",
     "metrics/bind-and-end at 10,000 a second/reporting",
     "metrics/bind-and-end at 10,000 a second/not reporting ledger on",
     [("time", 0, "ratio", 1.05), ("time", 99, "none", 0)]),
    # The frame pairs compare the whole Tether path (the app paints the 60 lines with setString,
    # the renderer diffs and draws), then the renderer alone on a finished buffer ("prepainted").
    ("200x60 frame, all cells changed", "frame/200x60 all changed/TerminalUI diff",
     "frame/200x60 all changed/ncurses redraw", [("time", 0, "ratio", 0.6)]),
    ("200x60 frame, all cells changed (renderer alone)", "frame/200x60 all changed/TerminalUI render prepainted",
     "frame/200x60 all changed/ncurses redraw", [("time", 0, "ratio", 0.6)]),
    ("200x60 frame, one line changed", "frame/200x60 one line changed/TerminalUI diff",
     "frame/200x60 one line changed/ncurses redraw", [("time", 50, "absolute", 40_000)]),
    ("200x60 frame, one line changed (renderer alone)", "frame/200x60 one line changed/TerminalUI render prepainted",
     "frame/200x60 one line changed/ncurses redraw", [("time", 50, "absolute", 40_000)]),
    ("200x60 frame, nothing changed", "frame/200x60 nothing changed/TerminalUI diff",
     "frame/200x60 nothing changed/ncurses redraw", [("time", 50, "absolute", 20_000)]),
    ("200x60 frame, nothing changed (renderer alone)", "frame/200x60 nothing changed/TerminalUI render prepainted",
     "frame/200x60 nothing changed/ncurses redraw", [("time", 50, "absolute", 20_000)]),
]

# Pairs whose two sides run the same code per operation, judged in turns alone: a ledger served to
# no client is not observed, so serving it adds no work to a bind and end. By process, this
# 2-core machine spreads such a pair far wider than its 2 % target (0.48–1.82 between processes of
# one `make bench`), so its by-process ratio is shown, unjudged; in turns, a slow spell falls on
# both sides alike and the ratio resolves a per-operation cost (Benchmarks/README.md).
JUDGED_IN_TURNS = {"bind and end, served with no client vs not served"}

# The profile's in-turns lines judged against a pair's time target: (section, variant) → label.
IN_TURNS = {
    ("One value to 1 subscriber, per send", "sink(boundTo:)"): "1 value, 1 subscriber: bound sink",
    ("One value to 1 subscriber, per send", "fuse"): "1 value, 1 subscriber: fuse",
    ("One value to 100 subscribers, per send", "sink(boundTo:)"): "1 value, 100 subscribers: bound sink",
    ("One value to 100 subscribers, per send", "fuse"): "1 value, 100 subscribers: fuse",
    ("LiveData publish to 100 observers whose bags track them", "LiveData"): "LiveData publish to 100 vs closures",
    ("LiveData publish to 100 observers held weakly", "LiveData"): "LiveData publish to 100 held weakly vs weak boxes",
    ("@Observed set with 10 .did observers", "@Observed"): "@Observed set, 10 observers vs CurrentValueSubject",
    ("asyncSink, per value", "asyncSink"): "asyncSink, per value",
    ("Bind and end one subscription", "Tether DisposeBag"): "bind and end one subscription",
    ("Bind and end one subscription, ledger served", "served, no client"):
        "bind and end, served with no client vs not served",
    ("Bind and end one subscription, ledger reported through swift-metrics", "reporting"):
        "bind and end at 10,000/s, reporting metrics vs not",
    ("Bind and end on 8 threads, one ledger", "ledger on"): "bind and end on 8 threads, one ledger: on vs off",
    ("Bind and end on 16 threads, one ledger", "ledger on"): "bind and end on 16 threads, one ledger: on vs off",
}

METRICS = {"Time(wallclock)": "time", "Malloc(total)": "mallocs"}


def load(path):
    """{benchmark: {"time"|"mallocs": {percentile: value per operation}}}"""
    results = defaultdict(lambda: defaultdict(dict))
    with open(path, newline="") as file:
        rows = csv.reader(line for line in file if not line.startswith("#"))
        header = next(rows, None)
        if header is None:
            sys.exit(f"ratios.py: {path} is empty — no benchmark ran (a --filter regex must match "
                     "a whole name: '.*send.*')")
        at = {name: index for index, name in enumerate(header)}
        for row in rows:
            metric = METRICS.get(row[at["metric"]])
            if metric is None:
                continue
            name = row[at["test"]]
            base = name.removesuffix(" ledger on").removesuffix(" ledger off")
            value = float(row[at["value"]]) / OPS.get(base, 1)
            results[name][metric][float(row[at["percentile"]])] = value
    return results


def show_time(ns):
    if ns >= 1_000_000:
        return f"{ns / 1_000_000:.2f} ms"
    if ns >= 1_000:
        return f"{ns / 1_000:.2f} µs"
    return f"{ns:.1f} ns"


def show_count(count):
    return f"{count:.1f}" if count < 100 else f"{count:.0f}"


def show(metric, value):
    return show_time(value) if metric == "time" else show_count(value)


def judge(kind, bound, ratio, tether):
    if kind == "ratio":
        return f"≤ {bound:g}×", ratio <= bound
    if kind == "below":
        return "< 1×", ratio < 1.0
    return f"≤ {show_time(bound)}", tether <= bound


def ratio_of(value, base):
    return value / base if base else float("inf") if value else 1.0


def median_run(runs):
    """The runs merged: {benchmark: {metric: {percentile: median over the runs that have it}}}"""
    merged = defaultdict(lambda: defaultdict(dict))
    for name in set().union(*runs):
        for metric in ("time", "mallocs"):
            for percentile in set().union(*(run[name][metric] for run in runs if name in run)):
                values = [run[name][metric][percentile] for run in runs
                          if name in run and percentile in run[name][metric]]
                merged[name][metric][percentile] = statistics.median(values)
    return merged


def time_target(label):
    """The (kind, bound) of pair `label`'s time check: a ratio ("ratio" or "below")."""
    checks = next(checks for label_, _, _, checks in PAIRS if label_ == label)
    return next((kind, bound) for metric, _, kind, bound in checks if metric == "time" and kind != "absolute")


def judge_in_turns(lines):
    """Passes the profile's output through, adding a verdict to each line IN_TURNS names when the
    section was measured with the ledger on. Exits non-zero if one of them never came: the
    profile renamed it."""
    section, ledger_on, seen = None, False, set()
    for line in lines:
        line = line.rstrip("\n")
        if not line.startswith(" "):
            title, _, rest = line.rpartition(", ledger ")
            section, ledger_on = title, rest.startswith("on;")
        elif ledger_on and "÷" in line:
            variant, _, rest = line.strip().partition(": median ")
            label = IN_TURNS.get((section, variant))
            if label is not None:
                ratio = float(rest.split("per round: median ")[1].split(" ")[0])
                target, met = judge(*time_target(label), ratio, tether=None)
                line += f"; target {target} {'PASS' if met else 'MISS'}"
                seen.add((section, variant))
        print(line, flush=True)
    missing = [f"{section}: {variant}" for section, variant in IN_TURNS if (section, variant) not in seen]
    if missing:
        sys.exit("ratios.py: no in-turns reading, with the ledger on, of " + "; ".join(missing))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1:] == ["--in-turns"]:
        return judge_in_turns(sys.stdin)
    runs = []
    for path in sys.argv[1:]:
        try:
            runs.append(load(path))
        except FileNotFoundError:
            sys.exit(f"ratios.py: no results at {path} — did the benchmark run fail?")
    results = median_run(runs)

    print(f"\nEvery benchmark, per operation (p0 / p50 / p99 time, p50 mallocs"
          f"{'' if len(runs) == 1 else f'; medians of {len(runs)} runs'}):")
    width = max(len(name) for name in results)
    for name in sorted(results):
        time, mallocs = results[name]["time"], results[name]["mallocs"]
        print(f"  {name:<{width}}  {show_time(time[0.0]):>10} / {show_time(time[50.0]):>10} / {show_time(time[99.0]):>10}"
              f"   {show_count(mallocs[50.0]):>7} mallocs")

    print("\nTether ÷ alternative (targets apply with the ledger on):")
    for pair, tether, alternative, checks in PAIRS:
        alt = results.get(alternative)
        print(f"\n  {pair}")
        if alt is None:
            print(f"    alternative '{alternative}' was not run")
        else:
            figures = ", ".join(
                f"{metric} p{percentile} {show(metric, alt[metric][float(percentile)])}"
                for metric, percentile in dict.fromkeys([(c[0], c[1]) for c in checks] + [("mallocs", 50)]))
            print(f"    alternative ({alternative.split('/')[-1]}): {figures}")
        # TerminalUI's benchmarks have no ledger: they are reported once, as "on" (what users run).
        unledgered = tether in results
        for ledger in ("on", "off"):
            mine = results.get(tether if unledgered else f"{tether} ledger {ledger}")
            if mine is None or (unledgered and ledger == "off"):
                continue
            # Every pair shows mallocs too; a pair without a mallocs target shows them unjudged.
            shown = checks + ([] if any(c[0] == "mallocs" for c in checks) else [("mallocs", 50, "none", 0)])
            for metric, percentile, kind, bound in shown:
                p = float(percentile)
                value = mine[metric][p]
                if alt is None:
                    print(f"    ledger {ledger:<3} {metric} p{percentile} {show(metric, value)}")
                    continue
                name = tether if unledgered else f"{tether} ledger {ledger}"
                pairs = [(run[name][metric][p], run[alternative][metric][p])
                         for run in runs if name in run and alternative in run]
                ratios = [ratio_of(mine_, alt_) for mine_, alt_ in pairs]
                ratio = statistics.median(ratios)
                prefix = f"    {'no ledger  ' if unledgered else f'ledger {ledger:<3} '}{metric:<7} p{percentile:<2} {show(metric, value):>10}"
                if kind == "none":
                    if all(mine_ == 0 and alt_ == 0 for mine_, alt_ in pairs):
                        print(f"{prefix}  none on either side")
                    else:
                        print(f"{prefix}  {ratio:6.2f}×  (no target)")
                    continue
                target, met = judge(kind, bound, ratio, value)
                verdict = ("PASS" if met else "MISS") if ledger == "on" else ("(pass)" if met else "(miss)")
                if pair in JUDGED_IN_TURNS and metric == "time":
                    verdict = "(judged in turns, below)"
                line = f"{prefix}  {ratio:6.2f}×  target {target:<9} {verdict}"
                if len(ratios) > 1:
                    line += f"   runs {' '.join(f'{r:.2f}' for r in ratios)}"
                    if metric == "time" and p == 0.0:
                        best = ratio_of(min(mine_ for mine_, _ in pairs), min(alt_ for _, alt_ in pairs))
                        line += f"; best {best:.2f}×"
                if p == 0.0:
                    medians = [ratio_of(run[name][metric][50.0], run[alternative][metric][50.0])
                               for run in runs if name in run and alternative in run]
                    line += f";  p50 {statistics.median(medians):.2f}×"
                    if len(medians) > 1:
                        line += f" (runs {' '.join(f'{r:.2f}' for r in medians)})"
                print(line)
        if f"{tether} ledger on" not in results and tether not in results:
            print(f"    Tether's side '{tether}' was not run")


if __name__ == "__main__":
    main()
