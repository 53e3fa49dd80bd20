import Synchronization

/// One registration of a ``LiveData``: the observer's completion and what a delivery checks.
///
/// A delivery reads `status` and the `delivered` version, and loads the weak `observer` only when
/// the observer does not track the registration's lifetime: one that does holds the lifetime, so
/// the lifetime's end — which removes the registration — says the observer is gone. (Not so for a
/// lifecycle's lifetime, which whoever holds the lifecycle holds too: those registrations check.)
///
/// Not `Sendable` (it holds any observer, weakly): slots are shared only through their storage's
/// lock box. What a dispatch reads outside the lock is immutable, a weak reference or an atomic;
/// what ties it to its lifetime and lifecycle is in the storage's locked state.
@usableFromInline
final class LiveDataSlot<T> {
    @usableFromInline
    enum Status: UInt8, AtomicRepresentable, Sendable {
        /// Listed, not called: bound to a lifecycle below `started`, or not yet bound to its lifetime.
        case inactive
        case active
        /// Out of the list: never called again.
        case removed
    }

    /// When a registration is called.
    @usableFromInline
    enum Activation: Sendable {
        /// Once bound to its lifetime, until it is removed: a bag's registration.
        case always
        /// While its lifecycle is at least started, as the storage is told and as `isStarted`
        /// reads at each delivery (an observer told of a step before this registration's may
        /// publish to it meanwhile).
        case whileStarted(_ isStarted: @Sendable () -> Bool)
    }

    /// What one delivery did.
    @usableFromInline
    enum Outcome {
        case skipped
        case delivered
        /// Its observer is gone: prune it.
        case dead
    }

    /// Increasing with each registration: how the lifetime's and the lifecycle's actions find it.
    let key: UInt64
    @usableFromInline let completion: @Sendable (T) -> Void
    @usableFromInline weak let observer: AnyObject?
    /// Whether a delivery checks `observer`: false when the observer tracks the lifetime (and is
    /// not bound through a lifecycle).
    @usableFromInline let checksObserver: Bool
    /// Written under the storage's lock; read by the dispatch outside it.
    @usableFromInline let status: Atomic<Status>
    /// The version of the last value delivered; 0 before the first. Read and written only by the
    /// thread holding the storage's dispatch claim.
    @usableFromInline let delivered = Atomic<UInt64>(0)
    @usableFromInline let entry: LedgerEntry?
    @usableFromInline let activation: Activation

    init(
        key: UInt64, observer: AnyObject, checksObserver: Bool, entry: LedgerEntry?,
        activation: Activation, completion: @escaping @Sendable (T) -> Void
    ) {
        self.activation = activation
        self.key = key
        self.observer = observer
        self.checksObserver = checksObserver
        self.entry = entry
        status = Atomic(.inactive)
        self.completion = completion
    }

    /// Outside the lock, by the thread holding the dispatch claim: calls the completion with
    /// version `version` of the value, unless it is inactive, removed, already has it, its
    /// observer is gone or its lifecycle is below started. Always inlined: it is the dispatch
    /// loop's body (Benchmarks/README.md, "A second CPU").
    ///
    /// The status is read after the observer and the lifecycle are checked: releasing what those
    /// checks loaded may be the last release, and run here the deinit that removes this
    /// registration (the observer's bag, or the lifecycle's lifetime, ending).
    @inlinable @inline(__always)
    func deliver(_ value: T, version: UInt64) -> Outcome {
        if checksObserver && observer == nil {
            return status.load(ordering: .relaxed) == .removed ? .skipped : .dead
        }
        if case .whileStarted = activation, !isStarted() { return .skipped }
        guard status.load(ordering: .relaxed) == .active, delivered.load(ordering: .relaxed) < version
        else { return .skipped }
        delivered.store(version, ordering: .relaxed)
        // A zombie is recorded after the call: a change handler it tells may remove this
        // registration, which must not be called after that.
        let zombie = entry?.countedSerially() == true
        completion(value)
        if zombie { entry?.recordZombie() }
        return .delivered
    }

    /// Whether the lifecycle of a lifecycle-bound registration is at least started. Apart, so that
    /// `deliver` stays small enough to inline: the closure called there cost every delivery 24
    /// instructions (callgrind, publish to 100 observers).
    @usableFromInline
    func isStarted() -> Bool {
        guard case .whileStarted(let isStarted) = activation else { return true }
        return isStarted()
    }
}
