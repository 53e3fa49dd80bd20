import Foundation
import TerminalUI
import Tether

/// `tether-lab --soak N`: presents every scenario, rotates and dismisses it, N times, in bound
/// then leaky mode, on a headless lab; reports cycles per second, RSS and the ledger's totals.
///
/// It fails when bound mode leaves a leak, a zombie or a live binding behind after quitting,
/// or when the resident set grew by more than ``allowedGrowth`` between the end of the first
/// tenth of the bound run and its end. (Leaky mode leaks by design; its growth is reported only.)
/// Leaks are sampled after every dismissal's grace period, so a leak that is released late
/// within a cycle still fails bound mode.
///
/// Under valgrind (`objcopy --strip-debug` the binary first: valgrind 3.19 cannot read Swift's
/// DWARF 5), bound mode loses nothing. What leaky mode loses is the lesson, left alone on
/// purpose: Observed's view model and the closures that capture it form a cycle nothing else
/// references (definitely lost, with its lifetime's weak-reference side table), and the tasks
/// Orientation, asyncSink and Lifecycle never cancel keep the lab alive to the end, whose side
/// tables valgrind cannot trace (Swift stores that pointer encoded in the refcount word).
/// Tearing down the lab's residents would not break either: only the leaked objects reference
/// them. RSS is meaningless under valgrind, so the growth check fails there.
/// Main-actor isolated.
@MainActor
public enum Soak {
    /// RSS growth tolerated in bound mode.
    public static let allowedGrowth = 2 * 1_048_576

    /// What one mode's run did.
    public struct ModeResult: Sendable {
        public var mode: Mode
        public var cycles: Int
        public var seconds: Double
        /// Counters after quitting (teardown plus the grace period).
        public var final: LabDump.Counters
        /// Leaks reported during the run (before quitting).
        public var leaksSeen: Int
        public var rssAfterFirstTenth: Int?
        public var rssAtEnd: Int?

        public var cyclesPerSecond: Double { seconds > 0 ? Double(cycles) / seconds : 0 }
        public var growth: Int? { rssAtEnd.flatMap { end in rssAfterFirstTenth.map { end - $0 } } }

        /// One line for the report.
        public var line: String {
            var s = "\(mode.rawValue): \(cycles) cycles in \(String(format: "%.2f", seconds))s, "
            s += "\(String(format: "%.1f", cyclesPerSecond)) cycles/s; leaks \(leaksSeen) during, "
            s += "\(final.leaks) after quit; zombies \(final.zombies)"
            if let a = rssAfterFirstTenth, let b = rssAtEnd {
                s += "; RSS \(ProcessMemory.format(a)) → \(ProcessMemory.format(b))"
            }
            return s
        }
    }

    /// The whole soak.
    public struct Report: Sendable {
        public var results: [ModeResult]
        public var peakRSS: Int?
        /// Why it failed; empty when it passed.
        public var failures: [String]
        public var passed: Bool { failures.isEmpty }

        /// The lines `--soak` prints.
        public var lines: [String] {
            var out = results.map(\.line)
            let totals = results.map { r in
                "\(r.mode.rawValue) viewModels \(r.final.viewModels) subscriptions \(r.final.subscriptions) "
                    + "tasks \(r.final.tasks) observers \(r.final.observers) leaks \(r.final.leaks) zombies \(r.final.zombies)"
            }
            out.append("ledger totals after quit: " + totals.joined(separator: "; "))
            out.append("peak RSS: " + (peakRSS.map(ProcessMemory.format) ?? "unknown"))
            out.append(passed ? "soak passed" : "soak FAILED: " + failures.joined(separator: "; "))
            return out
        }
    }

    /// Runs `cycles` cycles over `scenarios` in each of `modes`. `scenarios` must not be empty.
    ///
    /// - Parameter checkRSS: Whether bound mode fails when RSS grows by more than
    ///   ``allowedGrowth``; off under valgrind, whose RSS says nothing about the program's.
    public static func run(
        cycles: Int, scenarios: [Scenario], modes: [Mode] = [.bound, .leaky], checkRSS: Bool = true
    ) async -> Report {
        precondition(!scenarios.isEmpty, "nothing to soak")
        var results: [ModeResult] = []
        var failures: [String] = []
        for mode in modes {
            let result = await run(mode: mode, cycles: cycles, scenarios: scenarios)
            results.append(result)
            guard mode == .bound else { continue }
            let f = result.final
            if f.leaks > 0 || result.leaksSeen > 0 { failures.append("bound mode leaked") }
            if f.zombies > 0 { failures.append("bound mode delivered \(f.zombies) zombie values") }
            if f.viewModels + f.subscriptions + f.tasks + f.observers > 0 {
                failures.append("bound mode left bindings alive after quitting")
            }
            if checkRSS, let growth = result.growth, growth > allowedGrowth {
                failures.append("RSS grew by \(ProcessMemory.format(growth)) in bound mode")
            }
        }
        return Report(results: results, peakRSS: ProcessMemory.peakResidentBytes, failures: failures)
    }

    private static func run(mode: Mode, cycles: Int, scenarios: [Scenario]) async -> ModeResult {
        let lab = HeadlessLab(scenarios: scenarios)
        if mode == .leaky { await lab.press(.character("m")) }
        let grace = lab.environment.ledger.gracePeriod + HeadlessLab.tick
        let firstTenth = max(1, cycles / 10)
        var rssAfterFirstTenth: Int?
        var leaksSeen = 0
        let start = ContinuousClock.now
        for cycle in 1...max(1, cycles) {
            for scenario in scenarios {
                lab.lab.present(scenario)
                await lab.settle()
                for _ in 0..<3 { await lab.press(.character("r")) }
                await lab.press(.escape)
                await lab.advance(by: grace)
                leaksSeen = max(leaksSeen, lab.environment.ledger.counters.leaks)
                await lab.press(.character("r"))
            }
            if cycle == firstTenth { rssAfterFirstTenth = ProcessMemory.residentBytes }
        }
        let elapsed = ContinuousClock.now - start
        let rssAtEnd = ProcessMemory.residentBytes
        await lab.quit()
        return ModeResult(
            mode: mode, cycles: max(1, cycles),
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            final: LabDump.Counters(lab.environment.ledger.counters), leaksSeen: leaksSeen,
            rssAfterFirstTenth: rssAfterFirstTenth, rssAtEnd: rssAtEnd)
    }
}
