import Synchronization

/// The record of every binding Tether makes: who owns it, where it was made, how many values it
/// delivered — and, after an owner's end, whether anything it owned outlived it.
///
/// Every subscription, task, observer and two-way binding made through Tether is an *entry*;
/// every object that tracks a ``Lifetime`` (or a ``DisposeBag``) is an *owner*. When an owner's
/// lifetime ends, the ledger waits ``gracePeriod`` on its ``clock`` (a ``SystemClock`` may take up
/// to a tenth longer, to judge owners ending close together at once), then checks that the owner
/// object is gone and nothing it owned is still alive. What survives is a *leak*, reported once,
/// at the root owner, as a ``LeakReport``. A value delivered to an entry whose owner has ended is
/// a *zombie delivery*.
///
/// Bindings made inside `Ledger.$current.withValue(ledger) { … }` are recorded in `ledger`;
/// elsewhere in ``shared``. Tests make their own ledger on a ``ManualClock``:
///
/// ```swift
/// let clock = ManualClock()
/// let ledger = Ledger(clock: clock)
/// Ledger.$current.withValue(ledger) {
///     let model = ViewModel()          // tracks a DisposeBag, stores a task
///     model.bag.dispose()
/// }
/// clock.advance(by: ledger.gracePeriod)
/// #expect(ledger.snapshotRearmingOnChange().leaks.isEmpty)
/// ```
///
/// Thread-safe: the state is behind one lock; handlers and clock calls run after it is
/// unlocked. Recording costs a lock per binding made or ended (a lifetime's end, with everything
/// it cancels, is one) and an atomic increment per value delivered.
public final class Ledger: Sendable {
    /// The ledger bindings are recorded in when no other is current.
    public static let shared = Ledger()

    /// The ledger new lifetimes and bindings record into, for the current task.
    @TaskLocal public static var current: Ledger = .shared

    /// The clock that stamps events and times leak verdicts.
    public let clock: any TetherClock
    /// How long after an owner's end the leak verdict waits.
    public let gracePeriod: Duration
    /// How many repetitions of a scope in a row a site's count must rise in to be growing
    /// (``checkpoint(scope:)``).
    public let growthRepetitions: Int

    let state: ContendedMutex<LedgerState>
    private let enabled: Atomic<Bool>
    /// Whether any change handler is registered: ``changed()`` costs one load otherwise.
    private let listenerCount = Atomic<Int>(0)
    /// Set by a change, cleared by a snapshot: handlers hear of changes once between snapshots.
    let changePending = Atomic<Bool>(false)
    /// How many ``GrowthProbe``s run on this ledger: an entry opened costs one load otherwise.
    let probes = Atomic<Int>(0)

    /// Creates a ledger.
    ///
    /// - Parameters:
    ///   - clock: Stamps events and times verdicts; inject a ``ManualClock`` in tests.
    ///   - gracePeriod: How long after an owner's end its leak verdict waits. 300 ms by default.
    ///   - eventCapacity: How many events the log keeps; older ones are dropped. 0 keeps none.
    ///   - isEnabled: Whether bindings are recorded at all.
    ///   - growthRepetitions: How many repetitions of a scope in a row (``checkpoint(scope:)``) a
    ///     site's count must rise in to be growing. 3 by default; at least 1.
    public init(
        clock: any TetherClock = SystemClock(), gracePeriod: Duration = .milliseconds(300),
        eventCapacity: Int = 200, isEnabled: Bool = true, growthRepetitions: Int = 3
    ) {
        self.clock = clock
        self.gracePeriod = gracePeriod
        self.growthRepetitions = max(1, growthRepetitions)
        state = ContendedMutex(LedgerState(gracePeriod: gracePeriod, eventCapacity: eventCapacity))
        self.enabled = Atomic(isEnabled)
        state.withLock { $0.growth.repetitions = self.growthRepetitions }
    }

    /// Whether new bindings and owners are recorded. Turning it off stops recording from then on;
    /// what is recorded stays.
    public var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    // MARK: - Reading

    /// A consistent picture of the ledger now; taking one re-arms ``onChange(_:)`` handlers (the
    /// next change calls them), as the name says.
    public func snapshotRearmingOnChange() -> LedgerSnapshot {
        changePending.store(false, ordering: .releasing)
        let now = clock.now
        return state.withLock { $0.snapshot(at: now) }
    }

    /// Live counts, without building the rest of a snapshot. Reading them re-arms nothing.
    public var counters: LedgerSnapshot.Counters { state.withLock { $0.countersNow } }

    /// Live counts, as ``counters``; taking them re-arms ``onChange(_:)`` handlers as
    /// ``snapshotRearmingOnChange()`` does, for a watcher that follows only the counts (a metrics
    /// reporter).
    public func countersRearmingOnChange() -> LedgerSnapshot.Counters {
        changePending.store(false, ordering: .releasing)
        return counters
    }

    /// Calls `handler` when the ledger changes — at most once between two reads that re-arm it
    /// (``snapshotRearmingOnChange()``, ``countersRearmingOnChange()``), so a UI that re-renders
    /// from a snapshot gets coalesced updates (and once more after another handler registers: the
    /// first change after it calls them all, so that a handler is never left waiting on a change
    /// another handler was told of). Costs nothing while no handler is registered.
    ///
    /// The handler runs on the thread that made the change, after the ledger is unlocked; keep it
    /// short (schedule a redraw). The registration lasts until the returned token is cancelled or
    /// released: no call starts after that (one already running on another thread may finish).
    public func onChange(_ handler: @escaping @Sendable () -> Void) -> AnyCancellable {
        let key = state.withLock { $0.keep(handler, in: \.changeHandlers) }
        listenerCount.wrappingAdd(1, ordering: .relaxed)
        changePending.store(false, ordering: .releasing)
        return AnyCancellable { [weak self] in
            guard let self else { return }
            let removed = self.state.withLock { $0.changeHandlers.removeValue(forKey: key) }
            if removed != nil { self.listenerCount.wrappingSubtract(1, ordering: .relaxed) }
            _ = removed  // the handler is released here, after unlocking
        }
    }

    /// Adds an application event to the log (`presented orientation`, `rotated`…).
    public func note(_ message: String, owner: OwnerID? = nil) {
        let time = clock.now
        let note = LoggedEvent.Note(owner: owner, message: message)
        state.withLock {
            $0.log.append(time: time, kind: .note, subject: .note(note))
        }
        changed()
    }

    // MARK: - Telling

    /// Tells change handlers, at most once until the next snapshot.
    func changed() {
        guard listenerCount.load(ordering: .relaxed) > 0 else { return }
        // Loaded first: while a change is pending, as it is between a busy ledger's snapshots,
        // a change costs a load, not an exchange. The lock this change was made under orders
        // the load after any snapshot's clearing that read the ledger before it.
        guard !changePending.load(ordering: .relaxed),
            !changePending.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        let handlers = state.withLock { Array($0.changeHandlers) }
        for (key, handler) in handlers {
            // Not one that an earlier handler cancelled: a registration ends with its cancel.
            guard state.withLock({ $0.changeHandlers[key] != nil }) else { continue }
            handler()
        }
    }
}
