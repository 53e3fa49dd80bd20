import Tether

/// A ledger of its own, on a clock of its own, to prove that code leaves nothing behind.
///
/// Run the code under test inside ``run(_:)`` (every lifetime and binding made there is recorded
/// in this tracker's ledger), end what it owns, then ask ``report()`` — it lets the grace period
/// pass on the manual clock and lists what is left, as the `.noLeaks` trait does: leaks (owners
/// alive after their end), owners that never ended and are still alive (a retain cycle: the owner
/// keeps itself, so it never deinitializes and never ends), and entries still alive, each with its
/// call site. So ask once the code under test has let go of what it made, and its tasks are done.
///
/// ```swift
/// @Test func modelLeavesNothingBehind() {
///     let tracker = LeakTracker()
///     tracker.run {
///         let model = ViewModel()
///         model.start()
///     }
///     expectNoLeaks(tracker)      // fails with "Potential leak: 1 entry …" and its call site
/// }
/// ```
///
/// Thread-safe; one tracker per test (tests run in parallel).
public struct LeakTracker: Sendable {
    /// The manual clock the ledger runs on; advance it to let lab time pass.
    public let clock: ManualClock
    /// The tracker's ledger.
    public let ledger: Ledger

    /// Creates a tracker whose ledger waits `gracePeriod` after an owner's end.
    public init(gracePeriod: Duration = .milliseconds(300)) {
        clock = ManualClock()
        ledger = Ledger(clock: clock, gracePeriod: gracePeriod)
    }

    /// Runs `body` with the tracker's ledger current.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try Ledger.$current.withValue(ledger) { try body() }
    }

    /// Runs `body` with the tracker's ledger current.
    public func run<R>(_ body: () async throws -> R) async rethrows -> R {
        try await Ledger.$current.withValue(ledger) { try await body() }
    }

    /// Lets the grace period pass, then reports what is left — of everything, or of one owner.
    ///
    /// - Parameter owner: Only this owner's leak and entries — or, when an owner above it leaks
    ///   too, the leak that covers it; nil for the whole ledger.
    public func report(owner: OwnerID? = nil) -> Result {
        let snapshot = settle()
        var entries = snapshot.owners.flatMap(\.entries) + snapshot.unowned
        var leaks = snapshot.leaks
        var leftAlive = snapshot.owners.filter { $0.state == .alive }
        if let owner {
            entries = entries.filter { $0.owner == owner }
            leaks = leaks.filter { $0.owner == owner || $0.covered.contains(owner) }
            leftAlive = leftAlive.filter { $0.id == owner }
        }
        return Result(leaks: leaks, leftAlive: leftAlive, entries: entries)
    }

    /// Lets the grace period pass on the tracker's clock, so that every verdict due is given, and
    /// returns the ledger as it is then. An owner that ended while it passed (work scheduled on
    /// the clock) waits for its verdict: the clock goes on to it, up to ten times.
    func settle() -> LedgerSnapshot {
        clock.advance(by: ledger.gracePeriod)
        for _ in 0..<10 {
            guard let deadline = ledger.nextVerdictDeadline else { break }
            clock.advance(to: deadline)
        }
        return ledger.snapshotRearmingOnChange()
    }
}

extension LeakTracker {
    /// What a ``LeakTracker`` found left after the grace period.
    public struct Result: Sendable, CustomStringConvertible {
        /// Owners alive after their end, each named by the binding that kept it.
        public let leaks: [LedgerSnapshot.Leak]
        /// Owners that never ended and are still alive, with their entries: nothing will end them
        /// now. Usually a retain cycle — the owner keeps itself through a closure or a task it
        /// holds — which no verdict sees, since an owner that never deinitializes never ends.
        public let leftAlive: [LedgerSnapshot.Owner]
        /// Entries still alive (those of the owners left alive among them).
        public let entries: [LedgerSnapshot.Entry]

        /// Whether nothing is left.
        public var isEmpty: Bool { leaks.isEmpty && leftAlive.isEmpty && entries.isEmpty }

        /// `Potential leak: 2 entries, 1 owner`, then each leak's trace (``LeakReport``), each owner
        /// left alive with its bindings, and a line per other entry still alive with its call site.
        public var description: String {
            guard !isEmpty else { return "No leaks" }
            let owners = leaks.count + leftAlive.count
            var lines = [
                "Potential leak: \(count(entries.count, "entry", "entries")), \(count(owners, "owner", "owners"))"
            ]
            for leak in leaks {
                lines.append(leak.report.description)
                if !leak.covered.isEmpty {
                    let owners = leak.covered.map(\.description).joined(separator: ", ")
                    lines.append("  leaking with it: \(owners)")
                }
            }
            lines += leftAlive.map(Self.leftAlive)
            let shown = Set(leftAlive.map(\.id))
            for entry in entries where entry.owner.map({ !shown.contains($0) }) ?? true {
                let owner = entry.owner.map { " of \($0)" } ?? ""
                lines.append(
                    "  \(entry.kind.rawValue)\(owner) made at \(entry.site), "
                        + LeakReport.deliveries(entry.deliveries, of: entry.kind))
            }
            return lines.joined(separator: "\n")
        }

        /// `Model#1 left alive: …`, its bindings, and the usual fix.
        static func leftAlive(_ owner: LedgerSnapshot.Owner) -> String {
            var lines = [
                "\(owner.id) left alive: never ended, still alive after the test (tracked at \(owner.site))"
            ]
            lines += branches(owner.entries) { $0.bound ? "bound, " : "not bound to its owner, " }
            lines.append(
                "   fix: a retain cycle? capture the owner weakly (`[weak self]`) in the closures and tasks "
                    + "it keeps — or end it (`bag.dispose()`) before the test returns")
            return lines.joined(separator: "\n")
        }

        /// `2 bindings with no owner left alive after the test`, each, and the usual fix.
        static func leftAlive(_ unowned: [LedgerSnapshot.Entry]) -> String {
            let count = unowned.count == 1 ? "1 binding" : "\(unowned.count) bindings"
            var lines = ["\(count) with no owner left alive after the test"]
            lines += branches(unowned) { _ in "" }
            lines.append("   fix: store each in a bag that ends before the test returns, or cancel it")
            return lines.joined(separator: "\n")
        }

        private static func branches(
            _ entries: [LedgerSnapshot.Entry], binding: (LedgerSnapshot.Entry) -> String
        ) -> [String] {
            entries.enumerated().map { index, entry in
                let branch = index == entries.count - 1 ? "╰─" : "├─"
                let values = LeakReport.deliveries(entry.deliveries, of: entry.kind)
                return "\(branch) \(entry.kind.rawValue) at \(entry.site), \(binding(entry))\(values)"
            }
        }

        private func count(_ number: Int, _ one: String, _ many: String) -> String {
            "\(number) \(number == 1 ? one : many)"
        }
    }
}
