# Tether — the two commands a new user needs are `make run` and `make test`.
SHELL := /bin/bash
SWIFT       ?= swift
CONFIG      ?= debug
LAB_ARGS    ?=
SOAK_CYCLES ?= 10000
MEMCHECK_CYCLES ?= 20
# How many times `make bench` runs the suites: each run measures every benchmark in a process of
# its own, and a slow spell of the machine can fall on one process (Benchmarks/README.md).
BENCH_RUNS  ?= 3

.PHONY: run build test tsan lint docs bench instructions soak memcheck clean deps sarif-tools

# One line, not a compiler error page, when the ncurses headers are missing. On macOS they come
# with Xcode's command line tools, in the SDK.
deps:
	@if [ "$$(uname -s)" = Darwin ]; then \
	  if [ ! -f "$$(xcrun --show-sdk-path 2>/dev/null)/usr/include/ncurses.h" ]; then \
	    echo "tether: the ncurses headers are missing — install Xcode's command line tools: xcode-select --install" >&2; \
	    exit 1; \
	  fi; \
	elif [ ! -f /usr/include/ncurses.h ] && ! pkg-config --exists ncursesw 2>/dev/null; then \
	  echo "tether: libncurses-dev is missing — install it with: sudo apt-get install libncurses-dev" >&2; \
	  exit 1; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG) --product tether-lab

run: build
	@"$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/tether-lab" $(LAB_ARGS)

# Builds everything, fails on any warning in the project's own files, then runs the logic tests
# in parallel and, apart and one at a time, the tests that measure the wall clock: those carry
# the `.timing` tag and live in suites named `Timing` (swift test filters by name, not by tag).
test: deps sarif-tools
	@$(SWIFT) build --build-tests 2>&1 | tee .build-warnings.log | grep -E "error:|warning:|Compiling|Build" | grep -v "/.build/" | grep -vE "^\[" ; \
	  status=$${PIPESTATUS[0]}; \
	  if [ "$$status" -ne 0 ]; then echo "tether: build failed" >&2; exit 1; fi; \
	  if grep -E "^/.*: warning:" .build-warnings.log | grep -v "/.build/" | grep -q .; then \
	    echo "tether: the build has warnings in the project's own files (Swift 6, no warnings):" >&2; \
	    grep -E "^/.*: warning:" .build-warnings.log | grep -v "/.build/" | sort -u >&2; exit 1; \
	  fi
	$(SWIFT) test --skip-build --skip '/Timing/'
	@echo "tether: the tests that measure the wall clock (tag .timing), one at a time"
	$(SWIFT) test --skip-build --filter '/Timing/' --no-parallel

# Microsoft's sarif-tools, the SARIF consumer TetherLintTests reads the checker's output with: in a
# virtual environment under .build, from PyPI.
SARIF_TOOLS := .build/sarif-tools/bin/sarif
sarif-tools: $(SARIF_TOOLS)
$(SARIF_TOOLS):
	python3 -m venv .build/sarif-tools
	.build/sarif-tools/bin/pip install --quiet --disable-pip-version-check sarif-tools==3.0.5

# The library's logic tests under ThreadSanitizer (its wall-clock tests measure nothing there).
tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan -Xswiftc -DTETHER_TSAN --filter TetherTests --skip '/Timing/'

# swift-format's rules, the core's own (.ci/core-rules: file length, unchecked Sendable, pointers
# only under Platform/), then tether-lint over every source target, through its command plugin.
lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Plugins \
	  Benchmarks/Package.swift Benchmarks/Benchmarks Benchmarks/Profile Benchmarks/Contention
	bash .ci/core-rules
	$(SWIFT) package tether-lint --strict

# The DocC catalogs of Tether (with its extensions of Task, Publisher, NotificationCenter), of
# TetherInspector and of TetherMetrics (its extension of Ledger), into .build/docs. Fails on any
# DocC warning about the project's own files.
docs: deps
	$(SWIFT) package dump-symbol-graph --emit-extension-block-symbols
	rm -rf .build/docs && mkdir -p .build/docs/tether .build/docs/inspector .build/docs/metrics
	cp "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/Tether.symbols.json \
	  "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/Tether@*.symbols.json .build/docs/tether/
	cp "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/TetherInspector*.symbols.json .build/docs/inspector/
	cp "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/TetherMetrics*.symbols.json .build/docs/metrics/
	docc convert Sources/Tether/Tether.docc --additional-symbol-graph-dir .build/docs/tether \
	  --fallback-display-name Tether --fallback-bundle-identifier tether \
	  --output-path .build/docs/site 2>&1 | tee .build/docs/docc.log
	docc convert Sources/TetherInspector/TetherInspector.docc --additional-symbol-graph-dir .build/docs/inspector \
	  --fallback-display-name TetherInspector --fallback-bundle-identifier tether.inspector \
	  --output-path .build/docs/inspector-site 2>&1 | tee -a .build/docs/docc.log
	docc convert Sources/TetherMetrics/TetherMetrics.docc --additional-symbol-graph-dir .build/docs/metrics \
	  --fallback-display-name TetherMetrics --fallback-bundle-identifier tether.metrics \
	  --output-path .build/docs/metrics-site 2>&1 | tee -a .build/docs/docc.log
	@if grep -A1 'warning:' .build/docs/docc.log | grep -- '-->' | grep -qv 'checkouts/'; then \
	  echo "tether: DocC warnings in the project's own files (above)" >&2; exit 1; fi

# Runs every suite (BENCH_ARGS="--filter REGEX" narrows it), then prints Tether ÷ alternative.
bench: deps
	rm -f Benchmarks/.build/results/*.influx.csv
	cd Benchmarks && for run in $$(seq 1 $(BENCH_RUNS)); do \
	  echo "Run $$run of $(BENCH_RUNS)"; \
	  $(SWIFT) package --allow-writing-to-package-directory benchmark \
	    --format influx --path .build/results --no-progress --skip-target tether-bench-profile $(BENCH_ARGS) \
	    || exit 1; \
	  mv .build/results/Current_run.influx.csv .build/results/run-$$run.influx.csv; \
	done
	python3 Benchmarks/ratios.py Benchmarks/.build/results/run-*.influx.csv
	@printf '\n%s\n%s\n' "The sends, asyncSink, the observers and bind-and-end again, each pair in turns within" \
	  "one process (a slow spell of the machine then falls on both sides alike; see Benchmarks/README.md):"
	cd Benchmarks && $(SWIFT) build -c release --product tether-bench-profile --quiet
	set -o pipefail; { Benchmarks/.build/release/tether-bench-profile interleaved ledger-on 300 && \
	  Benchmarks/.build/release/tether-bench-profile interleaved ledger-off 300 && \
	  Benchmarks/.build/release/tether-bench-profile interleaved-lifetimes ledger-on 300; } \
	  | python3 Benchmarks/ratios.py --in-turns
	@printf '\n%s\n' "tether-lint: lines a second, the ratio to swift format lint, Sources/, peak memory:"
	$(SWIFT) build -c release --product tether-lint --quiet
	python3 Benchmarks/lint_bench.py "$$($(SWIFT) build -c release --show-bin-path)/tether-lint"
	@printf '\n%s\n' "Headless scripts: leaky visits against bound ones, and time against keys:"
	$(SWIFT) build -c release --product tether-lab --quiet
	python3 Benchmarks/headless_bench.py "$$($(SWIFT) build -c release --show-bin-path)/tether-lab"
	@printf '\nMeasured on %s, %s CPUs: ' "$$(if command -v lscpu >/dev/null; then \
	    lscpu | sed -n 's/^Model name: *//p; s/^CPU family: */family /p; s/^Model: */model /p' | paste -sd ' '; \
	  else sysctl -n machdep.cpu.brand_string; fi)" "$$(getconf _NPROCESSORS_ONLN)"
	@Benchmarks/.build/release/tether-bench-profile machine

# Instructions per operation (valgrind's callgrind) of every Tether pair of `make bench`: they
# move with the code, not the CPU; compare with Benchmarks/README.md.
instructions: deps
	cd Benchmarks && $(SWIFT) build -c release --product tether-bench-profile --quiet
	python3 Benchmarks/instructions.py Benchmarks/.build/release/tether-bench-profile

soak: deps
	$(SWIFT) build -c release --product tether-lab
	"$$($(SWIFT) build -c release --show-bin-path)/tether-lab" --soak $(SOAK_CYCLES)

# valgrind 3.19 cannot read Swift 6.3's DWARF 5 debug info, so it runs a copy without it.
# Bound mode only: leaky mode's cycles are leaks on purpose (they are what the lab teaches).
memcheck: deps
	$(SWIFT) build -c release --product tether-lab
	objcopy --strip-debug "$$($(SWIFT) build -c release --show-bin-path)/tether-lab" .build/tether-lab-memcheck
	valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
	  --suppressions=valgrind-swift-runtime.supp \
	  .build/tether-lab-memcheck --soak $(MEMCHECK_CYCLES) --soak-modes bound --no-rss-check

clean:
	rm -rf .build .build-* .build_* Benchmarks/.build .build-warnings.log
