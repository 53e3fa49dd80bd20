import Synchronization

/// Who an owner is, for the ledger and for its lifetime: its key, tag, call site and parent, and
/// whether its lifetime has ended. Immutable but for `ended`; where the owner is on its way out
/// (``OwnerState``) lives in the ledger's locked state, by `key`. The object is not held here,
/// not even weakly: its lifetime's deinit is its release. Its ``OwnerID`` is spelled out from its
/// tag where it is shown (``LedgerState/id(of:)``): making an owner copies no string.
@usableFromInline
final class OwnerRecord: Sendable {
    let key: UInt64
    /// Where its book is in the ledger's ``OwnerTable``, while the ledger follows it.
    let slot: Int
    /// Its id as the event log keeps it: its ledger's ``OwnerNames`` spell it out.
    let tag: OwnerTag
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
    /// Set once, when the owner's lifetime ends. Read without the ledger's lock on every delivery
    /// to spot zombies.
    @usableFromInline let ended = Atomic<Bool>(false)

    init(
        key: UInt64, slot: Int, tag: OwnerTag, siteIndex: SiteIndex, created: Duration,
        parent: OwnerRecord?, parentLink: OwnerLink?
    ) {
        self.key = key
        self.slot = slot
        self.tag = tag
        self.siteIndex = siteIndex
        self.created = created
        parentRecord = parent
        self.parentLink = parentLink
    }

    @inlinable var hasEnded: Bool { ended.load(ordering: .acquiring) }

    var handle: OwnerHandle { OwnerHandle(key: key, slot: slot) }
}

/// A lifetime's owner record once it tracks, shared with the records of its children, which may
/// track first. Until the lifetime tracks, the link of the lifetime above it (in the same ledger)
/// stands in for it: the nearest owner above is the parent. Holds no lifetime and calls nothing:
/// safe to read under the ledger's lock.
final class OwnerLink: Sendable {
    private let slot: Mutex<OwnerRecord?>
    private let outer: OwnerLink?

    init(_ record: OwnerRecord?, outer: OwnerLink?) {
        slot = Mutex(record)
        self.outer = outer
    }

    var record: OwnerRecord? { slot.withLock { $0 } ?? outer?.record }

    func set(_ record: OwnerRecord) { slot.withLock { $0 = record } }
}
