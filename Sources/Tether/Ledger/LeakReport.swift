/// What the ledger found when an owner outlived its end: the owner, where it was tracked, when it
/// ended, and each binding of it still alive at the verdict.
///
/// Its ``description`` is a trace to read, modelled on LeakCanary's: the owner and how long it
/// has outlived its end, each survivor with its call site and what it did after the end, and how
/// that kind of leak is usually fixed. Its ``signature`` groups leaks of the same shape — the same
/// owner type kept by the same bindings — across instances, runs and processes.
///
/// ```swift
/// let watch = ledger.onLeak { report in print(report) }
/// ```
public struct LeakReport: Sendable, Equatable, CustomStringConvertible {
    /// A binding of the owner still alive at the verdict.
    public struct Survivor: Sendable, Equatable {
        public let kind: EntryKind
        /// Where the binding was made.
        public let site: CallSite
        /// Values it delivered in all; nil when Tether cannot count them
        /// (``LedgerSnapshot/Entry/deliveries``).
        public let deliveries: Int?
        /// Values it delivered after its owner's end: zombie deliveries. Nil when not counted.
        public let deliveriesAfterEnd: Int?
        /// Whether the owner's lifetime held it (a task that ignored its cancellation) or it was
        /// only attributed to the owner (never stored, or stored somewhere else).
        public let bound: Bool

        public init(kind: EntryKind, site: CallSite, deliveries: Int?, deliveriesAfterEnd: Int?, bound: Bool)
        {
            self.kind = kind
            self.site = site
            self.deliveries = deliveries
            self.deliveriesAfterEnd = deliveriesAfterEnd
            self.bound = bound
        }

        /// `3 values delivered, 1 after the end`, or that Tether could not count them.
        public var delivered: String {
            let afterEnd = deliveriesAfterEnd.map { ", \($0) after the end" } ?? ""
            return LeakReport.deliveries(deliveries, of: kind) + afterEnd
        }
    }

    /// The owner that outlived its end.
    public let owner: OwnerID
    /// Where the owner was tracked.
    public let ownerSite: CallSite
    /// When the owner's lifetime ended, on the ledger's clock.
    public let endedAt: Duration
    /// When the verdict found the leak, on the ledger's clock.
    public let foundAt: Duration
    /// The owner's bindings still alive at the verdict, oldest first. Empty when the owner object
    /// itself is what outlived its end.
    public let survivors: [Survivor]

    /// A stable key for grouping: the owner's type and the survivors' kinds and call sites —
    /// no serials, no addresses. `OrientationViewModel ← task Lab/OrientationViewModel.swift:46`.
    /// Made once, with the report: readers group every leak by it, frame after frame.
    public let signature: String

    init(owner: OwnerID, ownerSite: CallSite, endedAt: Duration, foundAt: Duration, survivors: [Survivor]) {
        self.init(
            owner: owner, ownerSite: ownerSite, endedAt: endedAt, foundAt: foundAt, survivors: survivors,
            signature: LeakReport.signature(of: owner, survivors))
    }

    private init(
        owner: OwnerID, ownerSite: CallSite, endedAt: Duration, foundAt: Duration, survivors: [Survivor],
        signature: String
    ) {
        self.owner = owner
        self.ownerSite = ownerSite
        self.endedAt = endedAt
        self.foundAt = foundAt
        self.survivors = survivors
        self.signature = signature
    }

    private static func signature(of owner: OwnerID, _ survivors: [Survivor]) -> String {
        let kept =
            survivors.isEmpty
            ? "itself"
            : survivors.map { "\($0.kind.rawValue) \($0.site.fileID):\($0.site.line)" }.joined(
                separator: ", ")
        return "\(owner.typeName) ← \(kept)"
    }

    /// The binding the leak is named by: the first its lifetime could not end, else the oldest;
    /// nil when only the owner object survives.
    public var culprit: Survivor? { survivors.first { $0.bound } ?? survivors.first }

    /// The trace: a first line that says what leaked, then each survivor and a fix.
    ///
    /// ```text
    /// OrientationViewModel#1 leaked: alive 300ms after its end (tracked at OrientationViewModel.swift:24)
    /// ╰─ task at OrientationViewModel.swift:46, not bound to its owner
    ///    12 values delivered, 5 after the end
    ///    fix: store the task in the owner's bag (`.store(boundTo: bag)`, or start it with `Task(boundTo: bag) { }`)
    /// ```
    public var description: String {
        var lines = [headline]
        if survivors.isEmpty {
            lines.append("╰─ the owner object itself: something still holds it")
            lines.append("   fix: \(LeakReport.ownerFix)")
        }
        for (index, survivor) in survivors.enumerated() {
            let last = index == survivors.count - 1
            let branch = last ? "╰─" : "├─"
            let stem = last ? "   " : "│  "
            let binding =
                survivor.bound ? "bound, still running after its cancellation" : "not bound to its owner"
            lines.append("\(branch) \(survivor.kind.rawValue) at \(survivor.site), \(binding)")
            lines.append("\(stem)\(survivor.delivered)")
            lines.append("\(stem)fix: \(LeakReport.fix(for: survivor))")
        }
        return lines.joined(separator: "\n")
    }

    /// The trace's first line: who leaked, how long after its end, where it was tracked.
    public var headline: String {
        "\(owner) leaked: alive \((foundAt - endedAt).compactText) after its end (tracked at \(ownerSite))"
    }

    private static let ownerFix =
        "capture the owner weakly (`[weak self]`) in closures kept by longer-lived objects"

    /// `3 values delivered`, or, for a binding Tether cannot count, that it is not counted and
    /// which API would count it.
    public static func deliveries(_ count: Int?, of kind: EntryKind) -> String {
        if let count { return "\(count) value\(count == 1 ? "" : "s") delivered" }
        let counting = kind == .task ? "forEach(boundTo:)" : "sink(boundTo:)"
        return "deliveries not counted (\(counting) counts them)"
    }

    /// How a leak of this kind is usually fixed.
    static func fix(for survivor: Survivor) -> String {
        switch (survivor.kind, survivor.bound) {
        case (.task, true):
            "the task ignores cancellation: check `Task.isCancelled` in its loop, or await something that ends when cancelled"
        case (.task, false):
            "store the task in the owner's bag (`.store(boundTo: bag)`, or start it with `Task(boundTo: bag) { }`)"
        case (.subscription, _):
            "bind the subscription to the owner's bag: `sink(boundTo: bag)` or `.store(boundTo: bag)`"
        case (.observer, _):
            "observe with the owner's bag (`disposeBag: bag`, `observe(_:boundTo: bag)`), and capture the owner weakly"
        case (.binding, _):
            "unbind the properties when the owner ends"
        }
    }
}

extension LeakReport {
    /// This report with `survivors`' counts instead (the same survivors, counted further: the
    /// same signature).
    func counted(_ survivors: [Survivor]) -> LeakReport {
        LeakReport(
            owner: owner, ownerSite: ownerSite, endedAt: endedAt, foundAt: foundAt, survivors: survivors,
            signature: signature)
    }
}
