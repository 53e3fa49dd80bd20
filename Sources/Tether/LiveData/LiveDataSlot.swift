import Synchronization

/// One registration of a ``LiveData``, whatever its value type: the per-value path is not generic.
///
/// A delivery reads the slot's `flags` (active, removed) and its `delivered` version. It loads the
/// weak `observer` only when the observer does not track the registration's lifetime: one that
/// does holds it, so the lifetime's end — which sets `removed` — says the observer is gone.
///
/// `@unchecked Sendable`: `lock` protects `weakObserver`, `weakLifetime`, `token` and
/// `lifecycleToken`, and is never held while calling out. (The observer is any object, passed to
/// `add(observer:…)`, which cannot take it as `sending`.) `flags` are written under the storage's
/// lock; `delivered` only by the thread holding the storage's dispatch claim.
final class LiveDataSlot: @unchecked Sendable {
    enum Outcome {
        case skipped
        case delivered
        /// Its observer is gone: prune it.
        case dead
    }

    static var active: UInt8 { 1 }
    static var removed: UInt8 { 2 }

    let key: UInt64
    /// Whether the observer tracks the registration's lifetime: the lifetime's end, not a weak
    /// load, says it is gone.
    let observerEndsLifetime: Bool
    let entry: LedgerEntry?
    /// `active` and `removed` bits; written under the storage's lock.
    let flags: Atomic<UInt8>
    /// The version of the last value delivered; 0 before the first. Read and written only by the
    /// thread holding the storage's dispatch claim.
    let delivered = Atomic<UInt64>(0)
    /// Calls the completion with the `T` a pointer points to; made where `T` is known.
    private let receive: @Sendable (UnsafeRawPointer) -> Void

    private let lock = Mutex(())
    private weak var weakObserver: AnyObject?
    private weak var weakLifetime: Lifetime?
    private var token: Lifetime.Token?
    /// The lifecycle subscription of a lifecycle-bound registration.
    private var lifecycleToken: AnyCancellable?

    init<T>(
        key: UInt64, observer: AnyObject, entry: LedgerEntry?, lifetime: Lifetime, isActive: Bool,
        completion: @escaping @Sendable (T) -> Void
    ) {
        self.key = key
        weakObserver = observer
        observerEndsLifetime = lifetime.isTracked(by: observer)
        self.entry = entry
        weakLifetime = lifetime
        flags = Atomic(isActive ? LiveDataSlot.active : 0)
        receive = { completion($0.assumingMemoryBound(to: T.self).pointee) }
    }

    var observer: AnyObject? { lock.withLock { _ in weakObserver } }

    /// Records the action in the lifetime that removes the registration when the lifetime ends.
    func setToken(_ token: Lifetime.Token) { lock.withLock { _ in self.token = token } }

    /// Records the registration's lifecycle subscription.
    func setLifecycleToken(_ token: AnyCancellable) { lock.withLock { _ in lifecycleToken = token } }

    /// Takes what ties the registration to its lifetime and lifecycle, to cancel after unlocking.
    func takeLinks() -> (lifecycleToken: AnyCancellable?, lifetime: Lifetime?, token: Lifetime.Token?) {
        lock.withLock { _ in
            defer { lifecycleToken = nil }
            return (lifecycleToken, weakLifetime, token)
        }
    }

    /// Whether the observer is known to be gone. An observer that tracks the lifetime is removed
    /// with it instead.
    var isObserverGone: Bool { !observerEndsLifetime && observer == nil }

    /// Outside the lock, by the thread holding the dispatch claim: calls the completion with
    /// version `version` of the value, unless it is inactive, removed, already has it or its
    /// observer is gone.
    @inline(__always)
    func deliver(_ value: UnsafeRawPointer, version: UInt64) -> Outcome {
        let flags = flags.load(ordering: .relaxed)
        guard flags == LiveDataSlot.active, delivered.load(ordering: .relaxed) < version else {
            // An inactive registration is not called, but one whose observer died goes.
            return flags == 0 && isObserverGone ? .dead : .skipped
        }
        if isObserverGone { return .dead }
        delivered.store(version, ordering: .relaxed)
        // Counted before the call: a completion that ends its own bag received the value before
        // the end, which is no zombie delivery.
        entry?.deliveredSerially()
        receive(value)
        return .delivered
    }

    /// One round of a dispatch, outside the lock: calls every due registration of `slots` with
    /// `value`, in order, returning early when `publishedVersion` moves past `version`.
    /// Registrations whose observer died are added to `pruned`.
    static func deliver(
        _ value: UnsafeRawPointer, version: UInt64, to slots: [LiveDataSlot],
        publishedVersion: borrowing Atomic<UInt64>, pruning pruned: inout [LiveDataSlot]
    ) {
        slots.withUnsafeBufferPointer { buffer in
            // The snapshot keeps every slot alive for the round: read them as unmanaged references,
            // so that the loop retains and releases nothing per registration.
            buffer.withMemoryRebound(to: Unmanaged<LiveDataSlot>.self) { slots in
                for slot in slots {
                    if publishedVersion.load(ordering: .relaxed) != version { return }
                    let outcome = slot._withUnsafeGuaranteedRef { $0.deliver(value, version: version) }
                    if outcome == .dead { pruned.append(slot.takeUnretainedValue()) }
                }
            }
        }
    }
}
