import DequeModule
import Synchronization

/// The record of every binding Tether makes: who owns it, where it was made, how many values
/// it delivered — and, after an owner's end, whether anything it owned outlived it.
///
/// Every subscription, task, observer and binding made through Tether is an entry; every object
/// that tracks a ``Lifetime`` (or a ``DisposeBag``) is an owner. When an owner's lifetime ends, the
/// ledger waits ``gracePeriod`` on its ``clock`` and then checks that the owner object is gone (its
/// lifetime, which it holds, has deinitialized) and nothing bound to it is still alive. What survives is a *leak*, reported once, at the root
/// owner, with the call site of the binding that survived. A value delivered to an entry whose
/// owner has ended is a *zombie delivery*.
///
/// Bindings made inside `Ledger.$current.withValue(ledger) { … }` are recorded in `ledger`;
/// elsewhere in ``shared``. Tests make their own ledger with a ``ManualClock``:
///
/// ```swift
/// let clock = ManualClock()
/// let ledger = Ledger(clock: clock)
/// Ledger.$current.withValue(ledger) {
///     let model = ViewModel()          // tracks a DisposeBag, stores a task
///     model.bag.dispose()
/// }
/// clock.advance(by: ledger.gracePeriod)
/// #expect(ledger.snapshot().leaks.isEmpty)
/// ```
///
/// Thread-safe: the state is behind one `Mutex`; change handlers and clock calls run after it is
/// unlocked. Recording costs a lock per binding made or ended — a lifetime's end, with everything
/// it cancels and its owner's release, is one — and an atomic increment per value delivered. An
/// owner released with nothing of it left alive is settled at once: only owners that may have
/// leaked wait for a verdict.
public final class Ledger: Sendable {
    /// The ledger bindings are recorded in when no other is current.
    public static let shared = Ledger()

    /// The ledger new lifetimes and bindings record into, for the current task.
    @TaskLocal public static var current: Ledger = .shared

    /// The clock that stamps events and times leak verdicts.
    public let clock: any TetherClock
    /// How long after an owner's end the leak verdict waits.
    public let gracePeriod: Duration

    private let eventCapacity: Int
    private let enabled: Atomic<Bool>
    private let listenerCount = Atomic<Int>(0)
    private let changePending = Atomic<Bool>(false)
    /// The next key for an owner, entry or listener: one sequence, so keys are unique across them
    /// and follow the order things were made in. An atomic, so an entry is made before the lock
    /// is taken, not while it is held.
    private let nextKey = Atomic<UInt64>(1)
    private let state = Mutex(State())

    /// Creates a ledger.
    ///
    /// - Parameters:
    ///   - clock: Stamps events and times verdicts; inject a ``ManualClock`` in tests.
    ///   - gracePeriod: How long after an owner's end its leak verdict waits. 300 ms by default.
    ///   - eventCapacity: How many events the log keeps; older ones are dropped.
    ///   - isEnabled: Whether bindings are recorded at all.
    public init(
        clock: any TetherClock = SystemClock(), gracePeriod: Duration = .milliseconds(300),
        eventCapacity: Int = 200,
        isEnabled: Bool = true
    ) {
        self.clock = clock
        self.gracePeriod = gracePeriod
        self.eventCapacity = max(1, eventCapacity)
        self.enabled = Atomic(isEnabled)
    }

    /// Whether new bindings and owners are recorded. Turning it off stops recording from then on;
    /// what is recorded stays.
    public var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    // MARK: - Reading

    /// A consistent picture of the ledger now. Taking one re-arms ``onChange(_:)`` handlers.
    public func snapshot() -> LedgerSnapshot {
        changePending.store(false, ordering: .releasing)
        let now = clock.now
        return state.withLock { state in
            var byOwner: [UInt64: [LedgerSnapshot.Entry]] = [:]
            var unowned: [LedgerSnapshot.Entry] = []
            for entry in state.entries.sorted(by: { $0.key < $1.key }) {
                let item = LedgerSnapshot.Entry(
                    kind: entry.kind, owner: entry.owner?.id, site: state.site(entry.siteIndex),
                    age: now - entry.created,
                    deliveries: entry.deliveries.load(ordering: .relaxed),
                    state: entry.isPaused ? .paused : .active,
                    bound: entry.bound)
                if let owner = entry.owner, owner.isListed {
                    byOwner[owner.key, default: []].append(item)
                } else {
                    unowned.append(item)
                }
            }
            let owners = state.owners.sorted(by: { $0.key < $1.key }).map { slot in
                LedgerSnapshot.Owner(
                    id: slot.record.id, site: state.site(slot.record.siteIndex),
                    state: state.leaks[slot.key] != nil ? .leaked : (slot.hasEnded ? .ended : .alive),
                    age: now - slot.record.created, entries: byOwner[slot.record.key] ?? [])
            }
            let leaks = state.leakOrder.compactMap { state.leaks[$0] }
            return LedgerSnapshot(
                time: now, counters: state.counters, owners: owners, unowned: unowned, leaks: leaks,
                events: state.orderedEvents)
        }
    }

    /// Live counts, without building the rest of a snapshot.
    public var counters: LedgerSnapshot.Counters { state.withLock { $0.counters } }

    /// Calls `handler` when the ledger changes — at most once between two ``snapshot()`` calls,
    /// so a UI that re-renders from a snapshot on each call gets coalesced updates. Costs nothing
    /// while no handler is registered.
    ///
    /// The handler runs on the thread that made the change, after the ledger is unlocked; keep it
    /// short (schedule a redraw). The registration lasts until the returned token is cancelled or
    /// released.
    public func onChange(_ handler: @escaping @Sendable () -> Void) -> AnyCancellable {
        let key = state.withLock { state -> UInt64 in
            let key = takeKey()
            state.listeners[key] = handler
            return key
        }
        listenerCount.wrappingAdd(1, ordering: .relaxed)
        return AnyCancellable { [weak self] in
            guard let self else { return }
            let removed = self.state.withLock { $0.listeners.removeValue(forKey: key) }
            if removed != nil { self.listenerCount.wrappingSubtract(1, ordering: .relaxed) }
            _ = removed
        }
    }

    /// The ledger's changes as an async sequence, coalesced: each element means "something
    /// changed since the last snapshot".
    public var changes: AsyncStream<Void> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let token = onChange { continuation.yield() }
            let box = Mutex<AnyCancellable?>(token)
            continuation.onTermination = { _ in
                let token = box.withLock { $0.take() }
                token?.cancel()
            }
        }
    }

    /// Adds an application event to the log (`presented orientation`, `rotated`…).
    public func note(_ message: String, owner: OwnerID? = nil) {
        let time = clock.now
        let note = LoggedEvent.Note(owner: owner, message: message)
        state.withLock { $0.log(time: time, kind: .note, note: note, capacity: eventCapacity) }
        changed()
    }

    /// Runs the leak verdicts whose grace period has passed. The ledger's clock calls this by
    /// itself; call it directly only with a clock that cannot schedule.
    public func evaluateDueVerdicts() {
        let now = clock.now
        // In chunks, one lock hold each: a batch of thousands of owners judged under one hold
        // would stall every thread binding or ending something meanwhile.
        var found = false
        while let chunk = evaluateDueVerdicts(now: now, atMost: 64) {
            found = found || chunk
        }
        if found { changed() }
        scheduleVerdictsIfNeeded(notBefore: now + gracePeriod / 10)
    }

    /// Judges up to `limit` owners whose grace period ended by `now`, under one lock hold.
    /// Returns nil when none was due, else whether any was judged.
    private func evaluateDueVerdicts(now: Duration, atMost limit: Int) -> Bool? {
        state.withLock { state -> Bool? in
            guard let first = state.pending.first, first.deadline <= now else { return nil }
            var due: [(owner: OwnerSlot, endedAt: Duration)] = []
            while due.count < limit, let first = state.pending.first, first.deadline <= now {
                state.pending.removeFirst()
                // An owner already forgotten had its verdict settled when it was released.
                if first.owner.isListed { due.append((first.owner, first.deadline - gracePeriod)) }
            }
            // With the site the leak is named by, as the index its event takes.
            var leaked: [(slot: OwnerSlot, site: SiteIndex)] = []
            for (slot, endedAt) in due {
                guard slot.isListed else { continue }
                let key = slot.key
                slot.verdictPending = false
                // The owner is alive for as long as the lifetime it holds is: its deinit is the
                // owner's release (`ownerReleased`).
                if slot.released && slot.live == 0 {
                    state.forget(slot)
                    continue
                }
                // A leak: the owner object, or something it owned — bound to its lifetime or
                // only attributed to it, like a task that was never stored — outlived its end.
                // Only now is it worth looking through the entries.
                let survivors = state.entries
                    .filter { $0.owner === slot.record }
                    .sorted { $0.key < $1.key }
                // Named by what kept it: a binding its lifetime could not end, else the oldest.
                let named = survivors.first { $0.bound } ?? survivors.first
                let site = named?.siteIndex ?? slot.record.siteIndex
                state.leaks[key] = LedgerSnapshot.Leak(
                    owner: slot.record.id, kind: named?.kind, site: state.site(site),
                    endedAt: endedAt, survivors: survivors.map { state.site($0.siteIndex) })
                leaked.append((slot, site))
            }
            // Only the root owner is reported: drop leaks whose ancestor has leaked too.
            for (slot, site) in leaked {
                let key = slot.key
                guard slot.isListed, let leak = state.leaks[key] else { continue }
                if state.hasLeakedAncestor(slot.record) {
                    state.leaks[key] = nil
                    continue
                }
                state.leakOrder.append(key)
                state.counters.leaks += 1
                state.stopCountingEnding(slot)
                state.log(
                    time: now, kind: .leak, record: slot, entryKind: leak.kind, site: site,
                    capacity: eventCapacity)
            }
            return !due.isEmpty
        }
    }

    // MARK: - Recording (used by Tether's binding APIs)

    /// Registers `object` as an owner; nil when the ledger is off. `parent` finds the parent
    /// owner's record when a verdict needs it.
    func makeOwner(
        for object: AnyObject, site: CallSite, parent: (@Sendable () -> OwnerRecord?)?
    ) -> OwnerRecord? {
        guard isEnabled else { return nil }
        let now = clock.now
        let type: any AnyObject.Type = type(of: object)
        let record = state.withLock { state -> OwnerRecord in
            // One hash lookup: the serial is counted in place; a type's name is made once.
            let typeKey = ObjectIdentifier(type)
            let serial: (name: String, count: Int)
            if let index = state.typeSerials.index(forKey: typeKey) {
                state.typeSerials.values[index].count += 1
                serial = state.typeSerials.values[index]
            } else {
                serial = (String(describing: type), 1)
                state.typeSerials[typeKey] = serial
            }
            let record = OwnerRecord(
                key: takeKey(), id: OwnerID(typeName: serial.name, serial: serial.count),
                siteIndex: state.index(of: site), created: now, parent: parent)
            state.owners.list(record)
            state.counters.owners += 1
            return record
        }
        changed()
        return record
    }

    /// Takes back an owner registered by a `track` that lost to another one on the same lifetime.
    func discardOwner(_ record: OwnerRecord) {
        state.withLock { state in
            guard record.isListed else { return }
            state.owners.unlist(record)
            state.counters.owners -= 1
        }
        changed()
    }

    private func takeKey() -> UInt64 { nextKey.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Opens an entry; nil when the ledger is off.
    func open(_ kind: EntryKind, owner: OwnerRecord?, site: CallSite, bound: Bool) -> LedgerEntry? {
        guard isEnabled else { return nil }
        let now = clock.now
        let entry = LedgerEntry(
            key: takeKey(), kind: kind, owner: owner, created: now, bound: bound, ledger: self)
        state.withLock { state in
            state.entries.list(entry)
            state.counters[kind] += 1
            if let owner, owner.isListed { owner.count(entry, by: 1) }
            entry.siteIndex = state.index(of: site)
            state.log(
                time: now, kind: .created, record: owner, entryKind: kind, site: entry.siteIndex,
                capacity: eventCapacity)
        }
        changed()
        return entry
    }

    /// Removes an entry that has ended (called once per entry, by ``LedgerEntry/end(_:)``).
    func close(_ entry: LedgerEntry, reason: EndReason, wasPaused: Bool) {
        let now = clock.now
        state.withLock { state in
            state.close(entry, reason: reason, wasPaused: wasPaused, at: now, capacity: eventCapacity)
        }
        changed()
    }

    /// Records what a lifetime's end did, with one clock read and one lock: its owner's end (when
    /// `ownerEnded`: the caller set the record's `ended` flag), the entries it cancelled, in the
    /// order it cancelled them, and — when the lifetime deinitialized — its owner's release.
    ///
    /// An owner that is released with nothing of it left alive has its verdict settled on the spot
    /// and is forgotten: no verdict waits for it, and no timer is armed for it. So a bind-and-end
    /// leaves the ledger as it found it, instead of a queue of owners a timer thread judges later.
    func lifetimeEnded(owner: OwnerRecord?, ownerEnded: Bool, cancelled: ClosedEntries, released: Bool) {
        guard owner != nil || !cancelled.isEmpty else { return }
        let now = clock.now
        let capacity = eventCapacity
        let deadline = state.withLock { state -> Duration? in
            if ownerEnded, let owner {
                state.ownerEnded(owner, at: now, verdictAt: now + gracePeriod, capacity: capacity)
            }
            if let (entry, wasPaused) = cancelled.first {
                state.close(entry, reason: .cancelled, wasPaused: wasPaused, at: now, capacity: capacity)
            }
            for (entry, wasPaused) in cancelled.rest {
                state.close(entry, reason: .cancelled, wasPaused: wasPaused, at: now, capacity: capacity)
            }
            if released, let owner { state.ownerReleased(owner, at: now, capacity: capacity) }
            return state.takeVerdictDeadline()
        }
        changed()
        if let deadline { scheduleVerdicts(at: deadline) }
    }

    /// Counts an entry's pause or resume.
    func paused(_ delta: Int) {
        state.withLock { $0.counters.paused += delta }
        changed()
    }

    /// Marks an owner's lifetime ended and schedules its verdict; `alreadyMarked` when the caller
    /// has set the record's `ended` flag.
    func ownerEnded(_ record: OwnerRecord, alreadyMarked: Bool = false) {
        guard alreadyMarked || !record.ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        lifetimeEnded(owner: record, ownerEnded: true, cancelled: ClosedEntries(), released: false)
    }

    /// Notes that an owner object is gone (its lifetime deinitialized); a leak becomes "released late".
    func ownerReleased(_ record: OwnerRecord) {
        lifetimeEnded(owner: record, ownerEnded: false, cancelled: ClosedEntries(), released: true)
    }

    /// Counts a value delivered to an entry whose owner has ended.
    func recordZombie(_ entry: LedgerEntry) {
        let now = clock.now
        state.withLock { state in
            state.counters.zombies += 1
            state.log(
                time: now, kind: .zombie, record: entry.owner, entryKind: entry.kind, site: entry.siteIndex,
                capacity: eventCapacity)
        }
        changed()
    }

    /// Tells change handlers, at most once until the next snapshot.
    func changed() {
        guard listenerCount.load(ordering: .relaxed) > 0 else { return }
        guard !changePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let handlers = state.withLock { Array($0.listeners.values) }
        for handler in handlers { handler() }
    }

    /// Schedules the next verdict for the earliest pending deadline, but not before `notBefore`.
    ///
    /// After a verdict runs, the next is due as soon as the next owner's grace period ends —
    /// with owners ending continuously, microseconds later. Scheduling each one would start a
    /// timer per owner (on the system clock, a sleeping task each, competing with the app's own
    /// work); rescheduling at most every tenth of the grace period judges them in batches, each
    /// at most that much late.
    private func scheduleVerdictsIfNeeded(notBefore: Duration = .zero) {
        let deadline = state.withLock { state -> Duration? in state.takeVerdictDeadline() }
        if let deadline { scheduleVerdicts(at: max(deadline, notBefore)) }
    }

    private func scheduleVerdicts(at deadline: Duration) {
        clock.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.verdictScheduled = false }
            self.evaluateDueVerdicts()
        }
    }
}

// MARK: - State

/// The ledger's view of an owner: its record, whose bookkeeping atomics are changed only under
/// the ledger's lock. (A struct in a dictionary cost a coroutine-frame malloc per in-place change,
/// and a separate class one more object per owner; callgrind showed both on bind-and-end.)
typealias OwnerSlot = OwnerRecord

extension OwnerRecord {
    var record: OwnerRecord { self }

    var live: Int { liveEntries.load(ordering: .relaxed) }
    var liveBound: Int { liveBoundEntries.load(ordering: .relaxed) }

    /// Whether the ledger still follows the owner (it is in `State.owners`).
    var isListed: Bool { listIndex.load(ordering: .relaxed) >= 0 }

    var verdictPending: Bool {
        get { awaitsVerdict.load(ordering: .relaxed) }
        set { awaitsVerdict.store(newValue, ordering: .relaxed) }
    }

    var released: Bool {
        get { isReleased.load(ordering: .relaxed) }
        set { isReleased.store(newValue, ordering: .relaxed) }
    }

    var countedEnding: Bool {
        get { isCountedEnding.load(ordering: .relaxed) }
        set { isCountedEnding.store(newValue, ordering: .relaxed) }
    }

    /// Under the ledger's lock, the only writer: a load and a store, no locked read-modify-write.
    func count(_ entry: LedgerEntry, by delta: Int) {
        liveEntries.store(live &+ delta, ordering: .relaxed)
        if entry.bound { liveBoundEntries.store(liveBound &+ delta, ordering: .relaxed) }
    }
}

/// An event as the log keeps it, in 32 bytes: two to a cache line. Threads that record events
/// (a sender opening entries, the tasks closing them) take the log's lines from each other's
/// caches, so the fewer lines an event covers, the fewer move. (At 80 bytes, with its call site
/// inline, asyncSink read 1.20–2.44 µs a value on two cores; with the log switched off, as an
/// experiment, 1.11–1.14 µs.) The owner is kept as its record — one reference, where an
/// ``OwnerID`` is a string — and the call site as its place in the ledger's table of sites; both
/// are read when a snapshot is taken.
struct LoggedEvent {
    /// An application note's text and the owner it names.
    final class Note: Sendable {
        let owner: OwnerID?
        let message: String

        init(owner: OwnerID?, message: String) {
            self.owner = owner
            self.message = message
        }
    }

    /// Whom the event concerns: an owner, an application note, or neither.
    enum Subject {
        case none
        case owner(OwnerRecord)
        case note(Note)
    }

    let time: Duration
    let subject: Subject
    let site: SiteIndex
    let kind: LedgerEvent.Kind
    let entryKind: EntryKind?

    func event(sites: [CallSite]) -> LedgerEvent {
        let (owner, message): (OwnerID?, String?) =
            switch subject {
            case .none: (nil, nil)
            case .owner(let record): (record.id, nil)
            case .note(let note): (note.owner, note.message)
            }
        return LedgerEvent(
            time: time, kind: kind, owner: owner, entryKind: entryKind,
            site: site == .none ? nil : sites[Int(site.rawValue)], message: message)
    }
}

/// A call site's place in the ledger's table of sites (``State/sites``), or ``none``.
struct SiteIndex: Equatable {
    let rawValue: UInt32
    static let none = SiteIndex(rawValue: .max)
}

/// The entries a lifetime's end closed, in order; the first inline (most lifetimes hold one),
/// so recording them allocates nothing.
struct ClosedEntries {
    private(set) var first: (entry: LedgerEntry, wasPaused: Bool)?
    private(set) var rest: [(entry: LedgerEntry, wasPaused: Bool)] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ entry: LedgerEntry, wasPaused: Bool) {
        if first == nil { first = (entry, wasPaused) } else { rest.append((entry, wasPaused)) }
    }
}

/// An object the ledger keeps in an unordered array that it knows its position in: found and
/// removed in O(1) (swapped with the last) without hashing.
protocol LedgerListed: AnyObject {
    /// Its index in the array, -1 when it is not in it. Changed only under the ledger's lock.
    var listPosition: Int { get set }
}

extension OwnerRecord: LedgerListed {
    var listPosition: Int {
        get { listIndex.load(ordering: .relaxed) }
        set { listIndex.store(newValue, ordering: .relaxed) }
    }
}

extension LedgerEntry: LedgerListed {
    var listPosition: Int {
        get { listIndex.load(ordering: .relaxed) }
        set { listIndex.store(newValue, ordering: .relaxed) }
    }

    var isListed: Bool { listPosition >= 0 }
}

extension Array where Element: LedgerListed {
    mutating func list(_ element: Element) {
        element.listPosition = count
        append(element)
    }

    mutating func unlist(_ element: Element) {
        let index = element.listPosition
        guard index >= 0 else { return }
        let last = removeLast()
        if last !== element {
            self[index] = last
            last.listPosition = index
        }
        element.listPosition = -1
    }
}

private struct State {
    /// Open entries, in no order (snapshots sort them).
    var entries: [LedgerEntry] = []
    /// The owners the ledger follows, in no order: alive, or ended and awaiting or failing a verdict.
    var owners: [OwnerSlot] = []
    /// Leaks found, by owner key (reported ones are also in `leakOrder`).
    var leaks: [UInt64: LedgerSnapshot.Leak] = [:]
    var typeSerials: [ObjectIdentifier: (name: String, count: Int)] = [:]
    var counters = LedgerSnapshot.Counters()
    /// The event log: a ring of at most the ledger's capacity, the oldest at `oldestEvent`.
    var events: [LoggedEvent] = []
    var oldestEvent = 0
    /// Verdicts to run, in order of deadline. Owners forgotten meanwhile are skipped.
    var pending = Deque<(deadline: Duration, owner: OwnerSlot)>()
    var leakOrder: [UInt64] = []
    var listeners: [UInt64: @Sendable () -> Void] = [:]
    var verdictScheduled = false
    /// Every call site an event has named, once; events keep an index into it. It grows with the
    /// call sites a program has, not with what it records.
    var sites: [CallSite] = []
    private var siteIndices: [SiteKey: SiteIndex] = [:]

    /// A call site by the address of its file's name (a literal, so one address per file in a
    /// binary) and its line: hashing two words, not the file's name.
    private struct SiteKey: Hashable {
        let file: UInt
        let line: UInt

        init(file: UInt, line: UInt) {
            self.file = file
            self.line = line
        }

        init(_ site: CallSite) {
            file =
                site.fileID.hasPointerRepresentation
                ? UInt(bitPattern: site.fileID.utf8Start) : UInt(site.fileID.unicodeScalar.value) | 1 << 63
            line = site.line
        }
    }

    /// Sites looked up lately, by a cheap hash of their key: most lookups end here, without
    /// hashing the key for the dictionary (a program records from few sites at a time).
    private var recentSites = [RecentSite](repeating: RecentSite(), count: 64)

    private struct RecentSite {
        var key = SiteKey(file: 0, line: 0)
        var index = SiteIndex.none
    }

    /// The call site at `index` in ``sites``.
    func site(_ index: SiteIndex) -> CallSite { sites[Int(index.rawValue)] }

    /// The index of `site` in ``sites``, adding it the first time.
    mutating func index(of site: CallSite) -> SiteIndex {
        let key = SiteKey(site)
        let slot = Int(truncatingIfNeeded: (key.file >> 4 ^ key.line &* 0x9E37_79B9) & 63)
        if recentSites[slot].key == key, recentSites[slot].index != .none { return recentSites[slot].index }
        let index: SiteIndex
        if let known = siteIndices[key] {
            index = known
        } else {
            index = SiteIndex(rawValue: UInt32(sites.count))
            sites.append(site)
            siteIndices[key] = index
        }
        recentSites[slot] = RecentSite(key: key, index: index)
        return index
    }

    func hasLeak(_ owner: OwnerSlot) -> Bool { !leaks.isEmpty && leaks[owner.key] != nil }

    /// Queues the verdict of an owner whose lifetime ended.
    mutating func ownerEnded(
        _ owner: OwnerSlot, at now: Duration, verdictAt deadline: Duration, capacity: Int
    ) {
        guard owner.isListed else { return }
        owner.verdictPending = true
        owner.countedEnding = true
        counters.ending += 1
        pending.append((deadline, owner))
        log(time: now, kind: .ownerEnded, record: owner, site: owner.siteIndex, capacity: capacity)
    }

    mutating func close(
        _ entry: LedgerEntry, reason: EndReason, wasPaused: Bool, at now: Duration, capacity: Int
    ) {
        guard entry.isListed else { return }
        entries.unlist(entry)
        counters[entry.kind] -= 1
        if let owner = entry.owner, owner.isListed { owner.count(entry, by: -1) }
        if wasPaused { counters.paused -= 1 }
        log(
            time: now, kind: reason == .cancelled ? .cancelled : .ended, record: entry.owner,
            entryKind: entry.kind, site: entry.siteIndex,
            capacity: capacity)
        guard let owner = entry.owner, owner.isListed, owner.released, owner.live == 0 else { return }
        // The last survivor of a released owner is gone: a leak resolved itself ("released
        // late"); an owner on its way out is gone for good, and any verdict could only acquit it.
        if hasLeak(owner) {
            resolveLeak(of: owner, at: now, capacity: capacity)
        } else if owner.hasEnded {
            forget(owner)
        }
    }

    mutating func ownerReleased(_ owner: OwnerSlot, at now: Duration, capacity: Int) {
        guard owner.isListed, !owner.released else { return }
        owner.released = true
        counters.owners -= 1
        log(time: now, kind: .deinit, record: owner, site: owner.siteIndex, capacity: capacity)
        if hasLeak(owner) {
            // Released late — unless something it owned still runs, which keeps the leak.
            if owner.live == 0 { resolveLeak(of: owner, at: now, capacity: capacity) }
        } else if owner.hasEnded && (owner.live == 0 || !owner.verdictPending) {
            // Nothing of it outlived it (its verdict could only acquit it), or it was judged already.
            forget(owner)
        }
    }

    /// The deadline to arm the verdict timer for, if one is needed and none is armed; marks it armed.
    /// Drops the verdicts at the front that were settled meanwhile, so that none is armed for them.
    mutating func takeVerdictDeadline() -> Duration? {
        while let first = pending.first, !first.owner.isListed { pending.removeFirst() }
        guard !verdictScheduled, let first = pending.first else { return nil }
        verdictScheduled = true
        return first.deadline
    }

    /// Ends a leak whose owner and survivors are all gone: "released late".
    mutating func resolveLeak(of record: OwnerRecord, at now: Duration, capacity: Int) {
        counters.leaks -= 1
        leakOrder.removeAll { $0 == record.key }
        leaks[record.key] = nil
        log(
            time: now, kind: .releasedLate, record: record, site: record.siteIndex,
            capacity: capacity)
        forget(record)
    }

    /// Drops everything kept about an owner.
    mutating func forget(_ record: OwnerSlot) {
        owners.unlist(record)
        record.verdictPending = false
        stopCountingEnding(record)
        if !leaks.isEmpty { leaks[record.key] = nil }
    }

    /// Takes an owner out of ``LedgerSnapshot/Counters/ending``: it is forgotten, or reported as
    /// a leak.
    mutating func stopCountingEnding(_ owner: OwnerSlot) {
        guard owner.countedEnding else { return }
        owner.countedEnding = false
        counters.ending -= 1
    }

    /// Adds an event, overwriting the oldest once `capacity` are kept.
    mutating func log(
        time: Duration, kind: LedgerEvent.Kind, record: OwnerRecord? = nil, entryKind: EntryKind? = nil,
        site: SiteIndex = .none, note: LoggedEvent.Note? = nil, capacity: Int
    ) {
        let subject: LoggedEvent.Subject
        if let record {
            subject = .owner(record)
        } else if let note {
            subject = .note(note)
        } else {
            subject = .none
        }
        // Made in place: no copy of the event (and of its references) on the way in.
        if events.count < capacity {
            events.append(
                LoggedEvent(time: time, subject: subject, site: site, kind: kind, entryKind: entryKind))
        } else {
            events[oldestEvent] = LoggedEvent(
                time: time, subject: subject, site: site, kind: kind, entryKind: entryKind)
            oldestEvent = oldestEvent + 1 == events.count ? 0 : oldestEvent + 1
        }
    }

    /// The log, oldest first.
    var orderedEvents: [LedgerEvent] {
        (events[oldestEvent...] + events[..<oldestEvent]).map { $0.event(sites: sites) }
    }

    func hasLeakedAncestor(_ record: OwnerRecord) -> Bool {
        var parent = record.parent
        while let current = parent {
            if leaks[current.key] != nil { return true }
            parent = current.parent
        }
        return false
    }
}
