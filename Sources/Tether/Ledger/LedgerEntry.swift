import Synchronization

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
/// counters are atomics; the ledger's state is behind its own lock. A delivery costs one atomic
/// increment and one load (``delivered()``), or, where deliveries never overlap, two plain loads
/// and a store (``deliveredSerially()``).
final class LedgerEntry: Sendable, LedgerListed {
    private static let active: UInt8 = 0
    private static let paused: UInt8 = 1
    private static let ended: UInt8 = 2

    // Words first, bytes last: the object stays small (Benchmarks/README.md, "The ledger's entry").
    let key: UInt64
    let owner: OwnerRecord?
    let created: Duration
    let ledger: Ledger
    let deliveries = Atomic<Int>(0)
    /// Deliveries after the owner's end; counted under the ledger's lock.
    private let zombieDeliveries = Atomic<Int>(0)
    /// Its position in the ledger's list of open entries; -1 once closed. Under the ledger's lock.
    private let listIndex = Atomic<Int>(-1)
    /// Where the entry was made, set under the ledger's lock when it is listed (an atomic only to
    /// keep the entry `Sendable`: the entry is made before the lock is taken).
    private let siteSlot = Atomic<UInt32>(SiteIndex.none.rawValue)
    let kind: EntryKind
    /// Whether the entry is held by its owner's lifetime (ends with it) or only attributed to it.
    let bound: Bool
    private let status = Atomic<UInt8>(LedgerEntry.active)

    init(key: UInt64, kind: EntryKind, owner: OwnerRecord?, created: Duration, bound: Bool, ledger: Ledger) {
        self.key = key
        self.kind = kind
        self.owner = owner
        self.created = created
        self.bound = bound
        self.ledger = ledger
    }

    var siteIndex: SiteIndex {
        get { SiteIndex(rawValue: siteSlot.load(ordering: .relaxed)) }
        set { siteSlot.store(newValue.rawValue, ordering: .relaxed) }
    }

    var listPosition: Int {
        get { listIndex.load(ordering: .relaxed) }
        set { listIndex.store(newValue, ordering: .relaxed) }
    }

    var isListed: Bool { listPosition >= 0 }

    var deliveriesAfterEnd: Int { zombieDeliveries.load(ordering: .relaxed) }

    /// Under the ledger's lock, its only writer.
    func countDeliveryAfterEnd() {
        zombieDeliveries.store(deliveriesAfterEnd &+ 1, ordering: .relaxed)
    }

    /// Counts one value delivered through this entry; one after the owner's end is a zombie.
    ///
    /// For paths that may deliver from several threads at once (an async sequence shared by
    /// tasks, `Task.countDelivery()`).
    @inline(__always)
    func delivered() {
        deliveries.wrappingAdd(1, ordering: .relaxed)
        if let owner, owner.hasEnded { ledger.recordZombie(self) }
    }

    /// As ``delivered()``, for an entry whose deliveries never overlap: a relaxed load and store,
    /// no locked read-modify-write.
    ///
    /// Exact for its two callers, whose deliveries come one after another: one Combine subscriber
    /// (Combine calls `receive(_:)` serially) and one ``LiveData`` registration (only the thread
    /// holding the storage's dispatch claim delivers, and the claim changes hands under a lock).
    @inline(__always)
    func deliveredSerially() {
        deliveries.store(deliveries.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
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

    var isPaused: Bool { status.load(ordering: .acquiring) == LedgerEntry.paused }
}
