#!/usr/bin/env python3
"""tether-lint's speed and scale: `make bench` runs it after the suites.

Usage: lint_bench.py TETHER_LINT [RUNS]

Generates a tree of 100,000 lines of Swift shaped like an app's view models (classes with tasks
over async sequences, sinks into bags, observers; a leak in some), then times, RUNS times each
(3 by default), in turns:
  - tether-lint over the tree (lines a second; CPU time ÷ wall time says how many cores it kept
    busy; its peak RSS),
  - `swift format lint` over the same tree, the toolchain's own swift-syntax tool (the ratio),
  - tether-lint over the project's own Sources/.
Each figure is the median of the runs. Prints the CPU it ran on. A report, not a gate: the exit
status is non-zero only when a command fails.
"""

import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time

LINES = 100_000
TARGET_LINES_PER_SECOND = 50_000
TARGET_RATIO = 0.15
TARGET_SOURCES_SECONDS = 1.0
TARGET_RSS_MB = 200

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = os.path.join(ROOT, "Benchmarks", ".build", "lint-tree")

CLASS = """import Combine
import Foundation

@MainActor
final class {name}ViewModel {{
    private var cancellables = Set<AnyCancellable>()
    private var task: Task<Void, Never>?
    private let service: {name}Service
    private(set) var items: [String] = []
    private(set) var isLoading = false
    private(set) var title = ""

    init(service: {name}Service, center: NotificationCenter) {{
        self.service = service
        service.titles
            .receive(on: DispatchQueue.main)
            .sink {{ [weak self] title in
                self?.title = title
            }}
            .store(in: &cancellables)
        service.items
            .map {{ $0.filter {{ !$0.isEmpty }} }}
            .sink {{ [weak self] items in self?.update(items) }}
            .store(in: &cancellables)
        task = Task {{ [weak self] in
            for await event in service.events {{
                guard let self else {{ return }}
                self.handle(event)
            }}
        }}
{leak}    }}

    deinit {{
        task?.cancel()
    }}

    func reload() async {{
        isLoading = true
        defer {{ isLoading = false }}
        do {{
            let loaded = try await service.load(page: 0)
            update(loaded)
        }} catch {{
            title = "Could not load: \\(error)"
        }}
    }}

    private func update(_ items: [String]) {{
        self.items = items.sorted()
        if items.count > {limit} {{
            title = "\\(items.count) items"
        }}
    }}

    private func handle(_ event: {name}Event) {{
        switch event {{
        case .added(let item):
            items.append(item)
        case .removed(let item):
            items.removeAll {{ $0 == item }}
        case .reset:
            items = []
        }}
    }}
}}

enum {name}Event: Sendable {{
    case added(String)
    case removed(String)
    case reset
}}

protocol {name}Service: AnyObject {{
    var titles: AnyPublisher<String, Never> {{ get }}
    var items: AnyPublisher<[String], Never> {{ get }}
    var events: AsyncStream<{name}Event> {{ get }}
    func load(page: Int) async throws -> [String]
}}

"""

LEAKS = [
    "",
    "        Task {{ [weak self] in\n            for await _ in center.notifications(named: .{name}) {{ await self?.reload() }}\n        }}\n",
    "        service.titles.sink {{ self.title = $0 }}.store(in: &cancellables)\n",
    "        _ = center.addObserver(forName: .{name}, object: nil, queue: .main) {{ _ in }}\n",
]


def generate():
    """Writes the tree (once: it is the same every time) and returns its line count."""
    stamp = os.path.join(TREE, ".lines")
    if os.path.exists(stamp):
        return int(open(stamp).read())
    shutil.rmtree(TREE, ignore_errors=True)
    generator = random.Random(42)
    lines = 0
    index = 0
    while lines < LINES:
        name = f"Feature{index:04d}"
        leak = LEAKS[generator.randrange(len(LEAKS))].format(name=name)
        text = CLASS.format(name=name, leak=leak, limit=generator.randrange(5, 50))
        folder = os.path.join(TREE, f"Module{index // 50:02d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{name}ViewModel.swift"), "w") as file:
            file.write(text)
        lines += text.count("\n")
        index += 1
    with open(stamp, "w") as file:
        file.write(str(lines))
    return lines


def measure(command):
    """Wall seconds, CPU seconds and peak RSS (MB) of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # `swift format lint` exits 1 when it has something to say; only a crash or a missing
    # tool is a failure.
    if process.returncode not in (0, 1):
        sys.exit(f"lint_bench: {' '.join(command)} failed ({process.returncode}): {process.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, process.stdout


def peak_rss_mb(command):
    """The peak RSS of one run of `command`, read in a process that runs only it (a process's
    children's peak is the largest any of them reached)."""
    code = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    output = subprocess.run([sys.executable, "-c", code] + command, stdout=subprocess.PIPE, text=True).stdout
    kilobytes = int(output.strip())
    return kilobytes / 1024 if sys.platform != "darwin" else kilobytes / 1024 / 1024


def cpu_model():
    try:
        for line in subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except FileNotFoundError:
        pass
    return subprocess.run(
        ["sysctl", "-n", "machdep.cpu.brand_string"], stdout=subprocess.PIPE, text=True).stdout.strip()


def verdict(ok):
    return "meets" if ok else "MISSES"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lint = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    lines = generate()
    sources_lines = sum(
        open(os.path.join(folder, name), errors="replace").read().count("\n")
        for folder, _, names in os.walk(os.path.join(ROOT, "Sources")) for name in names if name.endswith(".swift"))
    swift = os.environ.get("SWIFT", "swift")
    lint_tree, format_tree, lint_sources = [], [], []
    findings = 0
    for _ in range(runs):
        wall, cpu, output = measure([lint, TREE])
        lint_tree.append((wall, cpu))
        findings = output.count("\n")
        format_tree.append(measure([swift, "format", "lint", "--recursive", TREE])[:2])
        lint_sources.append(measure([lint, os.path.join(ROOT, "Sources")])[:2])
    rss = peak_rss_mb([lint, TREE])

    wall = statistics.median(w for w, _ in lint_tree)
    cores = statistics.median(c / w for w, c in lint_tree)
    format_wall = statistics.median(w for w, _ in format_tree)
    format_cores = statistics.median(c / w for w, c in format_tree)
    ratio = statistics.median(a[0] / b[0] for a, b in zip(lint_tree, format_tree))
    sources = statistics.median(w for w, _ in lint_sources)
    speed = lines / wall
    print(f"\ntether-lint over a generated tree of {lines:,} lines ({findings} findings), median of {runs} runs:")
    print(f"  {speed:,.0f} lines/s ({wall:.2f} s; CPU ÷ wall {cores:.2f} of {os.cpu_count()} cores)"
          f"   target ≥ {TARGET_LINES_PER_SECOND:,}: {verdict(speed >= TARGET_LINES_PER_SECOND)}")
    print(f"  ÷ swift format lint over the same tree ({format_wall:.2f} s, {lines / format_wall:,.0f} lines/s, "
          f"CPU ÷ wall {format_cores:.2f}): {ratio:.3f}   target ≈ {TARGET_RATIO}: {verdict(ratio <= TARGET_RATIO)}")
    print(f"  peak RSS {rss:.0f} MB   target ≤ {TARGET_RSS_MB} MB: {verdict(rss <= TARGET_RSS_MB)}")
    print(f"tether-lint over the project's Sources/ ({sources_lines:,} lines): {sources:.2f} s"
          f"   target < {TARGET_SOURCES_SECONDS:.0f} s: {verdict(sources < TARGET_SOURCES_SECONDS)}")
    print(f"Measured on {cpu_model()}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
