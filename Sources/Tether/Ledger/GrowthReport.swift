/// A call site whose live entries under one owner rose in each of the last
/// ``Ledger/growthRepetitions`` repetitions of one scope: a leak whose owner never ends.
///
/// A long-lived object (an app session, a service) that collects one more subscription each
/// time a screen appears is never judged by a leak verdict, because it never ends. Repeating the
/// screen and calling ``Ledger/checkpoint(scope:)`` at each of its ends shows it: the count at the
/// site where the screen binds rises every time.
///
/// Its ``description`` reads like a ``LeakReport``'s: what grows, where, by how much per
/// repetition, and a fix. Its ``signature`` (the owner's type, the kind and the call site, no
/// serials) groups growth of the same shape across instances, runs and processes.
///
/// ```swift
/// let watch = ledger.onGrowth { report in print(report) }
/// ```
public struct GrowthReport: Sendable, Equatable, CustomStringConvertible {
    /// The owner whose entries grow. It is alive: entries of an ended owner are leaks.
    public let owner: OwnerID
    /// Where the owner was tracked.
    public let ownerSite: CallSite
    /// The kind of the growing entries.
    public let kind: EntryKind
    /// Where the growing entries are made.
    public let site: CallSite
    /// The live entries at the site at the last ``Ledger/growthRepetitions`` checkpoints of
    /// ``scope``, oldest first: each greater than the one before.
    public let counts: [Int]
    /// The live entries at the site at the last checkpoint.
    public let live: Int
    /// The scope whose repetitions the site grew in (``Ledger/checkpoint(scope:)``).
    public let scope: String

    /// The scope of ``Ledger/checkpoint(scope:)`` when none is named: `default`.
    public static let defaultScope = "default"

    /// Makes a report; the ledger makes them at its checkpoints, a tool that carries reports
    /// (a wire client) makes them again from their fields.
    public init(
        owner: OwnerID, ownerSite: CallSite, kind: EntryKind, site: CallSite, counts: [Int], live: Int,
        scope: String = GrowthReport.defaultScope
    ) {
        self.owner = owner
        self.ownerSite = ownerSite
        self.kind = kind
        self.site = site
        self.counts = counts
        self.live = live
        self.scope = scope
    }

    /// A stable key for grouping: the owner's type, the kind and the call site, no serials.
    /// `AppSession grows subscription Lab/SheetViewModel.swift:31`.
    public var signature: String {
        "\(owner.typeName) grows \(kind.rawValue) \(site.fileID):\(site.line)"
    }

    /// The trace: what grows and where, the counts, and a fix.
    ///
    /// ```text
    /// AppSession#1 grows: 3 subscriptions at SheetViewModel.swift:31, +1 per repetition (tracked at AppSession.swift:12)
    /// ╰─ live at the last 3 checkpoints of sheet: 1 → 2 → 3, and AppSession#1 is still alive
    ///    fix: bind the subscription to the screen that makes it (`.store(boundTo: model.bag)`), not to AppSession's bag
    /// ```
    ///
    /// The checkpoints of the default scope go unnamed (`live at the last 3 checkpoints: …`).
    public var description: String {
        let history = counts.map(String.init).joined(separator: " → ")
        let checkpoints = "checkpoint\(counts.count == 1 ? "" : "s")"
        let of = scope == Self.defaultScope ? "" : " of \(scope)"
        return [
            headline,
            "╰─ live at the last \(counts.count) \(checkpoints)\(of): \(history), and \(owner) is still alive",
            "   fix: \(fix)",
        ].joined(separator: "\n")
    }

    /// The trace's first line: who grows, what, where, how fast.
    public var headline: String {
        let noun = live == 1 ? kind.rawValue : "\(kind.rawValue)s"
        return "\(owner) grows: \(live) \(noun) at \(site)\(gain) (tracked at \(ownerSite))"
    }

    /// `, +1 per repetition`; empty when a single count says nothing of the pace.
    private var gain: String {
        guard let first = counts.first, let last = counts.last, counts.count > 1 else { return "" }
        let total = last - first
        let steps = counts.count - 1
        if total % steps == 0 { return ", +\(total / steps) per repetition" }
        return ", +\(total) over \(steps) repetitions"
    }

    /// How growth of this kind is usually fixed.
    private var fix: String {
        let holder = owner.typeName
        return switch kind {
        case .subscription:
            "bind the subscription to the screen that makes it (`.store(boundTo: model.bag)`), "
                + "not to \(holder)'s bag"
        case .task:
            "store the task in the bag of the screen that starts it, not in \(holder)'s, "
                + "or cancel it when that screen goes"
        case .observer:
            "observe with the bag of the screen that observes (`disposeBag: model.bag`), "
                + "not \(holder)'s, or stop observing when it goes"
        case .binding:
            "unbind the properties when the screen that bound them goes"
        }
    }
}
