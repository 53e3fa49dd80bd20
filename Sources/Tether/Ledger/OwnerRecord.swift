import Synchronization

/// The ledger's record of one owner: who it is, whether its lifetime has ended, whether the object
/// itself is gone. The object is not held here, not even weakly: its lifetime's deinit is its
/// release.
///
/// Its bookkeeping is changed only under the ledger's lock; the fields are atomics (relaxed) so
/// that the record stays `Sendable` without a lock of its own.
final class OwnerRecord: Sendable, LedgerListed {
    let key: UInt64
    let id: OwnerID
    /// Where the owner was tracked.
    let siteIndex: SiteIndex
    let created: Duration
    /// The owner whose lifetime holds this one's, if any: leaks are reported at the root only.
    /// A child usually tracks in its own `init`, before the parent that creates it can track: then
    /// the parent's owner is found through the parent lifetime's ``OwnerLink`` when a verdict
    /// needs it. (A link, not the lifetime: read under the ledger's lock, a weak lifetime could
    /// be released there, and its deinit would end it under that lock.)
    var parent: OwnerRecord? { parentRecord ?? parentLink?.record }
    private let parentRecord: OwnerRecord?
    private let parentLink: OwnerLink?
    /// Set once, when the owner's lifetime ends. Read on every delivery to spot zombies.
    let ended = Atomic<Bool>(false)

    /// Live entries attributed to the owner, bound or not.
    private let liveEntries = Atomic<Int>(0)
    private let flags = Atomic<UInt8>(0)
    /// Its position in the ledger's list of owners; -1 once the ledger has forgotten it.
    private let listIndex = Atomic<Int>(-1)

    init(
        key: UInt64, id: OwnerID, siteIndex: SiteIndex, created: Duration, parent: OwnerRecord?,
        parentLink: OwnerLink?
    ) {
        self.key = key
        self.id = id
        self.siteIndex = siteIndex
        self.created = created
        parentRecord = parent
        self.parentLink = parentLink
    }

    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    // MARK: Under the ledger's lock

    var live: Int { liveEntries.load(ordering: .relaxed) }

    /// Counts an entry opened (+1) or closed (-1). The lock makes it the only writer: a load and
    /// a store, no locked read-modify-write.
    func countEntries(by delta: Int) {
        liveEntries.store(live &+ delta, ordering: .relaxed)
    }

    /// Whether the ledger still follows the owner.
    var isListed: Bool { listPosition >= 0 }

    var listPosition: Int {
        get { listIndex.load(ordering: .relaxed) }
        set { listIndex.store(newValue, ordering: .relaxed) }
    }

    /// Whether a leak verdict is queued for the owner.
    var verdictPending: Bool {
        get { has(.verdictPending) }
        set { set(.verdictPending, newValue) }
    }
    /// Whether the owner's lifetime has deinitialized: the owner object is gone.
    var released: Bool {
        get { has(.released) }
        set { set(.released, newValue) }
    }
    /// Whether the owner is counted in ``LedgerSnapshot/Counters/ending``.
    var countedEnding: Bool {
        get { has(.countedEnding) }
        set { set(.countedEnding, newValue) }
    }

    private struct Flag: OptionSet {
        let rawValue: UInt8
        static let verdictPending = Flag(rawValue: 1)
        static let released = Flag(rawValue: 2)
        static let countedEnding = Flag(rawValue: 4)
    }

    private func has(_ flag: Flag) -> Bool { Flag(rawValue: flags.load(ordering: .relaxed)).contains(flag) }

    private func set(_ flag: Flag, _ on: Bool) {
        var current = Flag(rawValue: flags.load(ordering: .relaxed))
        if on { current.insert(flag) } else { current.remove(flag) }
        flags.store(current.rawValue, ordering: .relaxed)
    }
}

/// A lifetime's owner record once it tracks, shared with the records of its children, which may
/// track first. Holds no lifetime and calls nothing: safe to read under the ledger's lock.
final class OwnerLink: Sendable {
    private let slot: Mutex<OwnerRecord?>

    init(_ record: OwnerRecord?) { slot = Mutex(record) }

    var record: OwnerRecord? { slot.withLock { $0 } }

    func set(_ record: OwnerRecord) { slot.withLock { $0 = record } }
}
