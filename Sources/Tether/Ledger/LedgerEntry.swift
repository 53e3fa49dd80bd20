import Synchronization

/// The ledger's record of one owner: who it is, whether its lifetime has ended, whether the
/// object itself is gone. The object is held weakly, by the ledger, not here.
final class OwnerRecord: Sendable {
    let key: UInt64
    let id: OwnerID
    /// Where the owner was tracked: its place in the ledger's table of sites.
    let siteIndex: SiteIndex
    let created: Duration
    /// The owner whose lifetime holds this one's, if any: leaks are reported at the root only.
    /// Found when a verdict needs it: a child owner usually tracks in its own `init`, before the
    /// parent that creates it can track itself.
    var parent: OwnerRecord? { findParent?() }
    private let findParent: (@Sendable () -> OwnerRecord?)?
    /// Set once, when the owner's lifetime ends. Read on every delivery to spot zombies.
    let ended = Atomic<Bool>(false)

    // The ledger's bookkeeping of the owner. Changed only while the ledger's lock is held; they
    // are atomics (relaxed) so that the record stays Sendable and needs no second object.
    /// Live entries attributed to the owner, and how many of them its lifetime holds.
    let liveEntries = Atomic<Int>(0)
    let liveBoundEntries = Atomic<Int>(0)
    /// Whether a leak verdict is queued for the owner.
    let awaitsVerdict = Atomic<Bool>(false)
    /// Whether the owner's lifetime has deinitialized: the owner object is gone.
    let isReleased = Atomic<Bool>(false)
    /// Whether the owner is counted in ``LedgerSnapshot/Counters/ending``.
    let isCountedEnding = Atomic<Bool>(false)
    /// Its position in the ledger's list of owners; -1 once the ledger has forgotten it.
    let listIndex = Atomic<Int>(-1)

    init(
        key: UInt64, id: OwnerID, siteIndex: SiteIndex, created: Duration,
        parent: (@Sendable () -> OwnerRecord?)?
    ) {
        self.key = key
        self.id = id
        self.siteIndex = siteIndex
        self.created = created
        findParent = parent
    }

    var hasEnded: Bool { ended.load(ordering: .acquiring) }
}

/// Why an entry ended.
enum EndReason: Sendable {
    /// It finished by itself or was removed by its user.
    case ended
    /// Its lifetime ended and cancelled it.
    case cancelled
}

/// One binding in the ledger: a subscription, task, observer or two-way binding.
///
/// Made by Tether's binding APIs through ``Ledger/open(_:owner:site:bound:)``. Thread-safe: the
/// counters are atomics and the ledger's state is behind its own lock. The hot path,
/// ``delivered()``, costs one atomic increment and one atomic load; ``deliveredSerially()``, for a
/// single Combine subscriber, two plain loads and a store.
final class LedgerEntry: Sendable {
    private static let active: UInt8 = 0
    private static let paused: UInt8 = 1
    private static let ended: UInt8 = 2

    // Words first, bytes last: 79 bytes in all (a 96-byte chunk), so that glibc's malloc keeps a
    // freed entry in a fast bin (chunks of up to 128 bytes). An `asyncSink` body's entry is made
    // on the sending thread and freed on a worker; at 132 bytes (a 144-byte chunk, with its call
    // site stored here too) each free went through the arena's unsorted bin and merged chunks,
    // and each malloc took one back out.
    let key: UInt64
    let owner: OwnerRecord?
    let created: Duration
    let ledger: Ledger
    let deliveries = Atomic<Int>(0)
    /// Its position in the ledger's list of open entries; -1 once closed. Under the ledger's lock.
    let listIndex = Atomic<Int>(-1)
    /// Where the entry was made: its place in the ledger's table of sites. Set when the entry is
    /// listed, under the ledger's lock (an atomic, relaxed, only to keep the entry `Sendable`: the
    /// entry is made before the lock is taken).
    private let siteSlot = Atomic<UInt32>(SiteIndex.none.rawValue)
    let kind: EntryKind
    /// Whether the entry is held by its owner's lifetime (ends with it) or only attributed to it.
    let bound: Bool
    private let status = Atomic<UInt8>(LedgerEntry.active)

    var siteIndex: SiteIndex {
        get { SiteIndex(rawValue: siteSlot.load(ordering: .relaxed)) }
        set { siteSlot.store(newValue.rawValue, ordering: .relaxed) }
    }

    init(
        key: UInt64, kind: EntryKind, owner: OwnerRecord?, created: Duration, bound: Bool, ledger: Ledger
    ) {
        self.key = key
        self.kind = kind
        self.owner = owner
        self.created = created
        self.bound = bound
        self.ledger = ledger
    }

    /// Counts one value delivered through this entry; a delivery after the owner's end is a
    /// zombie and is reported to the ledger.
    ///
    /// For paths that may deliver from several threads at once (an async sequence shared by
    /// tasks, `Task.countDelivery()`): the count is a read-modify-write (`lock xadd` on x86).
    @inline(__always)
    func delivered() {
        deliveries.wrappingAdd(1, ordering: .relaxed)
        if let owner, owner.hasEnded { ledger.recordZombie(self) }
    }

    /// As ``delivered()``, for an entry whose deliveries never overlap: a relaxed load and a
    /// relaxed store, no locked read-modify-write.
    ///
    /// Exact for the two callers, whose deliveries are ordered one after another:
    /// - one Combine subscriber: Combine requires a publisher to call a subscriber's
    ///   `receive(_:)` serially, and a publisher that moves its calls between threads orders them
    ///   through its own synchronization (a lock, a queue);
    /// - one ``LiveData`` registration: only the thread holding the storage's dispatch claim
    ///   delivers, and the claim changes hands under the storage's lock.
    ///
    /// So each call happens after the previous one and its load sees the previous store. Readers
    /// (snapshots, on any thread) load the counter relaxed and see a recent, whole value.
    @inline(__always)
    func deliveredSerially() {
        deliveries.store(deliveries.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        // Optional chaining reads the owner in place; `if let owner` retained and released it.
        if owner?.hasEnded == true { ledger.recordZombie(self) }
    }

    /// Ends the entry once; later calls do nothing.
    func end(_ reason: EndReason = .ended) {
        if let wasPaused = markEnded() { ledger.close(self, reason: reason, wasPaused: wasPaused) }
    }

    /// Marks the entry ended without telling the ledger (the caller closes it there): nil when it
    /// had ended already, else whether it was paused.
    func markEnded() -> Bool? {
        var current = status.load(ordering: .relaxed)
        while current != LedgerEntry.ended {
            let (exchanged, original) = status.compareExchange(
                expected: current, desired: LedgerEntry.ended, ordering: .acquiringAndReleasing)
            if exchanged { return current == LedgerEntry.paused }
            current = original
        }
        return nil
    }

    /// Marks the entry paused (its owner's lifecycle is below the active state) or active again.
    func setPaused(_ paused: Bool) {
        let (from, to) =
            paused ? (LedgerEntry.active, LedgerEntry.paused) : (LedgerEntry.paused, LedgerEntry.active)
        if status.compareExchange(expected: from, desired: to, ordering: .acquiringAndReleasing).exchanged {
            ledger.paused(paused ? 1 : -1)
        }
    }

    var isEnded: Bool { status.load(ordering: .acquiring) == LedgerEntry.ended }
    var isPaused: Bool { status.load(ordering: .acquiring) == LedgerEntry.paused }
}
