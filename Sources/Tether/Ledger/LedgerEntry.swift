import Synchronization

/// Why an entry ended.
enum EndReason: Sendable, Equatable {
    /// It finished by itself or was removed by its user.
    case ended
    /// Its lifetime ended and cancelled it.
    case cancelled
    /// It finished by itself with an error (a loop over a sequence that threw): the error's
    /// description, which the event log shows.
    case failed(String)
}

/// One binding in the ledger: a subscription, task, observer or two-way binding.
///
/// Made by Tether's binding APIs through ``Ledger/open(_:owner:site:bound:counts:)``, under the ledger's
/// lock; immutable but for its delivery count and status, atomics read and written without the
/// lock. What else the ledger keeps about it (deliveries after its owner's end) is in the ledger's
/// locked state. A delivery costs one atomic increment and one load (``delivered()``), or, where
/// deliveries never overlap, two plain loads and a store (``deliveredSerially()``).
@usableFromInline
final class LedgerEntry: Sendable {
    private enum Status: UInt8, AtomicRepresentable {
        case active, paused, ended
        /// Ended while paused: counted paused until the ledger closes it.
        case endedPaused
    }

    // Words first, bytes last: the object stays small (Benchmarks/README.md, "The ledger's entry").
    let key: UInt64
    @usableFromInline let owner: OwnerRecord?
    let created: Duration
    @usableFromInline let ledger: Ledger
    @usableFromInline let deliveries = Atomic<Int>(0)
    /// Where the entry was made.
    let siteIndex: SiteIndex
    let kind: EntryKind
    /// Whether the entry is held by its owner's lifetime (ends with it) or only attributed to it.
    let bound: Bool
    /// Whether what it delivers is counted. A cancellable handed to a lifetime (`store(in:)`)
    /// delivers out of Tether's sight; a task counts from when a Tether sequence is iterated in
    /// it, or a value is counted on it (``deliveryCount``).
    private let counting: Atomic<Bool>
    private let status = Atomic<Status>(.active)

    init(
        key: UInt64, kind: EntryKind, owner: OwnerRecord?, site: SiteIndex, created: Duration, bound: Bool,
        countsDeliveries: Bool, ledger: Ledger
    ) {
        self.key = key
        self.kind = kind
        self.owner = owner
        self.siteIndex = site
        self.created = created
        self.bound = bound
        counting = Atomic(countsDeliveries)
        self.ledger = ledger
    }

    /// The values delivered so far, or nil when Tether cannot know them: an entry whose API does
    /// not count, unless it began counting later (``countsFromNow()``) or a value was counted on
    /// it all the same.
    var deliveryCount: Int? {
        let count = deliveries.load(ordering: .relaxed)
        return count > 0 || counting.load(ordering: .relaxed) ? count : nil
    }

    /// Says that what this entry delivers is counted from now: a Tether sequence is iterated
    /// in its task.
    func countsFromNow() {
        counting.store(true, ordering: .relaxed)
    }

    /// Counts one value delivered through this entry; one after the owner's end is a zombie.
    ///
    /// For paths that may deliver from several threads at once (an async sequence shared by
    /// tasks, `Task.countDelivery()`) and that check nothing before their call.
    @inline(__always)
    func delivered() {
        if counted() { recordZombie() }
    }

    /// As ``delivered()``, for an entry whose deliveries never overlap.
    @inlinable @inline(__always)
    func deliveredSerially() {
        if countedSerially() { recordZombie() }
    }

    /// Counts one value about to be delivered; true when it is a zombie delivery (its owner has
    /// ended), for the caller to record with ``recordZombie()`` once the value is delivered.
    ///
    /// For a delivery that checks its registration is still there, then calls: recording tells
    /// the ledger's change handlers, and a handler that removes the registration must not come
    /// between that check and the call. Counted before the call all the same: a callee that ends
    /// its own owner received the value before the end, which is no zombie delivery.
    @inline(__always)
    func counted() -> Bool {
        deliveries.wrappingAdd(1, ordering: .relaxed)
        return owner?.hasEnded == true
    }

    /// As ``counted()``, for an entry whose deliveries never overlap: a relaxed load and store,
    /// no locked read-modify-write.
    ///
    /// Exact for its callers, whose deliveries come one after another: one Combine subscriber
    /// (Combine calls `receive(_:)` serially) and one ``LiveData`` registration (only the thread
    /// holding the storage's dispatch claim delivers, and the claim changes hands under a lock).
    /// Inlinable, so that a ``LiveData`` delivery specialized in a client counts without a call.
    @inlinable @inline(__always)
    func countedSerially() -> Bool {
        deliveries.store(deliveries.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        return owner?.hasEnded == true
    }

    /// Records the zombie delivery that ``counted()`` or ``countedSerially()`` found.
    @inlinable
    func recordZombie() {
        ledger.recordZombie(self)
    }

    /// Ends the entry once; later calls do nothing.
    func end(_ reason: EndReason = .ended) {
        if let wasPaused = markEnded() { ledger.close(self, reason: reason, wasPaused: wasPaused) }
    }

    /// Marks the entry ended without telling the ledger (the caller closes it there): nil when it
    /// had ended already, else whether it was paused.
    func markEnded() -> Bool? {
        var current = status.load(ordering: .relaxed)
        while current != .ended && current != .endedPaused {
            let (exchanged, original) = status.compareExchange(
                expected: current, desired: current == .paused ? .endedPaused : .ended,
                ordering: .acquiringAndReleasing)
            if exchanged { return current == .paused }
            current = original
        }
        return nil
    }

    /// Marks the entry paused (its owner's lifecycle is below the active state) or active again.
    ///
    /// The status changes under the ledger's lock, with the count: an end that finds the entry
    /// paused takes it off the count only after it was counted, so the count is never negative.
    func setPaused(_ paused: Bool) {
        let (from, to): (Status, Status) = paused ? (.active, .paused) : (.paused, .active)
        ledger.countPause(paused ? 1 : -1) {
            status.compareExchange(expected: from, desired: to, ordering: .acquiringAndReleasing).exchanged
        }
    }

    /// Whether the ledger counts it paused: paused, or ended while paused and not closed yet (a
    /// snapshot taken meanwhile lists it as its counters count it).
    var isPaused: Bool {
        let current = status.load(ordering: .acquiring)
        return current == .paused || current == .endedPaused
    }

    /// Whether it has ended (the ledger may not have closed it yet).
    var hasEnded: Bool {
        let current = status.load(ordering: .acquiring)
        return current == .ended || current == .endedPaused
    }
}
