import TerminalUI
import Tether
import TetherInspector

/// The inspector: the counters with their change and a sparkline of their last minute, the sites
/// growing under owners that never end, the leaks grouped by signature with a count, the owner
/// tree (owner → entries with kind, call site, values delivered and age), and the event log.
///
/// One component, two sources: the lab feeds it its own ledger's snapshots, `tether-lab attach`
/// the snapshots a ``LedgerServer`` sends; both as an `InspectorSnapshot`, through ``update(_:)``,
/// and both render and take keys through the same code. It keeps what a view keeps between
/// frames: the counters before the last change (a delta stays in sight until the next change,
/// not for one frame), their history, the selection, the collapsed owners and the filter.
///
/// Keys, while it has the focus: ↑/↓ (PageUp, PageDown, Home, End) move the selection over the
/// growing sites, the leak groups and the tree; Enter opens the selected site's report
/// (``Outcome/openGrowth(_:)``) or group's report (``Outcome/openReport(_:)``), or expands or
/// collapses an owner; → expands, ← collapses (or goes to an entry's owner); `/`
/// edits the filter (by type or file name; Enter keeps it, Esc clears it); Esc clears the filter,
/// then gives the keys back, as Tab does (``Outcome/giveBackFocus``).
/// Main-actor isolated; lives as long as its lab or attach.
@MainActor
final class Inspector {
    /// What a key did, and what it asks of the inspector's host.
    enum Outcome: Equatable {
        /// The inspector has no use for the key.
        case ignored
        /// The inspector changed; nothing for the host to do but draw.
        case handled
        /// Present this group's report.
        case openReport(InspectorSnapshot.LeakGroup)
        /// Present this growing site's report.
        case openGrowth(InspectorGrowthReport)
        /// Give the keys back to the screens (the lab; attach has nowhere to give them).
        case giveBackFocus
    }

    /// The last snapshot.
    private(set) var snapshot = InspectorSnapshot()
    /// What it leaves out, when it is of a ledger's head.
    private var cut: InspectorContent.Cut?
    private(set) var content = InspectorContent(InspectorSnapshot())
    private(set) var history = CounterHistory()
    /// The counters of the last snapshot, and those before its last change (for the deltas).
    private(set) var previous: LabDump.Counters?
    private var beforeChange: LabDump.Counters?
    /// The selected row; nil until the first move.
    private(set) var selection: InspectorContent.Item?
    /// The owners whose entries are hidden.
    private(set) var collapsed: Set<OwnerID> = []
    /// Narrows the lists to what names it, by type or file name; empty shows all.
    private(set) var filter = ""
    /// Whether keys type into the filter.
    private(set) var isEditingFilter = false
    /// The lists' scroll positions between frames.
    var growthList = ListState()
    var leakList = ListState()
    var treeList = ListState()
    /// What the first counter is called: `view models` in the lab, `owners` in attach.
    let ownersLabel: String

    init(ownersLabel: String = "view models") {
        self.ownersLabel = ownersLabel
    }

    // MARK: Feeding

    /// Shows `snapshot` from now on; records its counters for the deltas and the sparklines.
    /// `cut` says what it leaves out when it is a snapshot of a ledger's head: enough while the
    /// inspector shows the head of each list (``needsEveryRow`` is false).
    func update(_ snapshot: InspectorSnapshot, cut: InspectorContent.Cut? = nil) {
        self.snapshot = snapshot
        self.cut = cut
        let counters = LabDump.Counters(snapshot.counters)
        if let previous, previous != counters { beforeChange = previous }
        previous = counters
        history.record(counters, at: snapshot.time)
        refresh()
    }

    /// Forgets the history and the deltas: the next snapshot comes from another process.
    func forgetHistory() {
        history = CounterHistory()
        previous = nil
        beforeChange = nil
    }

    /// Whether the inspector may show a row past the head of its lists: a row is selected (the
    /// selection moves over every row, and stays on one across snapshots), or the filter or a
    /// collapsed owner moves rows up. While it has the keys it may too: feed it whole snapshots then.
    var needsEveryRow: Bool { selection != nil || !filter.isEmpty || isEditingFilter || !collapsed.isEmpty }

    /// The counters the deltas are taken against.
    var countersBeforeChange: LabDump.Counters? { beforeChange ?? previous }

    private func refresh() {
        let index = selection.flatMap { content.items.firstIndex(of: $0) }
        let cut = filter.isEmpty && collapsed.isEmpty ? cut : nil
        content = InspectorContent(snapshot, filter: filter, collapsed: collapsed, cut: cut)
        guard let selection, !content.items.contains(selection) else { return }
        // The selected row went: stay at its place in the list (nowhere, when the list is empty).
        let items = content.items
        self.selection = items.isEmpty ? nil : index.map { items[min($0, items.count - 1)] } ?? items.first
    }

    // MARK: Keys

    /// Handles `key` while the inspector has the focus.
    func handle(_ key: Key) -> Outcome {
        if isEditingFilter { return editFilter(key) }
        if let step = key.navigationStep(page: 10, limit: content.items.count) {
            move(by: step)
            return .handled
        }
        switch key {
        case .enter:
            if let report = content.growth(selection) { return .openGrowth(report) }
            if let group = content.group(selection) { return .openReport(group) }
            if case .owner(let id)? = selection { setCollapsed(id, !collapsed.contains(id)) }
        case .right, .character("l"):
            if case .owner(let id)? = selection { setCollapsed(id, false) }
        case .left, .character("h"):
            switch selection {
            case .owner(let id)?: setCollapsed(id, true)
            case .entry(let owner?, _)?: selection = .owner(owner)
            default: break
            }
        case .character("/"):
            isEditingFilter = true
        case .escape:
            guard filter.isEmpty else {
                setFilter("")
                return .handled
            }
            return .giveBackFocus
        case .tab, .backTab:
            return .giveBackFocus
        default:
            return .ignored
        }
        return .handled
    }

    /// Moves the selection by `step` rows (the first move selects the first row).
    func move(by step: Int) {
        let items = content.items
        guard !items.isEmpty else { return }
        // With nothing selected, a step down starts above the first row, a step up below the last.
        let index = selection.flatMap { items.firstIndex(of: $0) } ?? (step < 0 ? items.count : -1)
        self.selection = items[min(max(0, index + step), items.count - 1)]
    }

    /// Selects the first row if nothing is selected: the first growing site or leak, when there is one.
    func selectFirstIfNone() {
        if selection == nil { selection = content.items.first }
    }

    /// Handles `key` while the filter is being typed: every character is text.
    private func editFilter(_ key: Key) -> Outcome {
        switch key {
        case .enter:
            isEditingFilter = false
        case .escape:
            isEditingFilter = false
            setFilter("")
        case .tab, .backTab:
            isEditingFilter = false
            return .giveBackFocus
        case .backspace, .delete:
            setFilter(String(filter.dropLast()))
        case .character(let c):
            setFilter(filter + String(c))
        default:
            return .ignored
        }
        return .handled
    }

    private func setFilter(_ text: String) {
        filter = text
        refresh()
    }

    private func setCollapsed(_ owner: OwnerID, _ isCollapsed: Bool) {
        if isCollapsed { collapsed.insert(owner) } else { collapsed.remove(owner) }
        refresh()
    }
}
