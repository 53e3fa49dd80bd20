/// A value holder whose observers are held weakly and removed when their ``DisposeBag`` ends.
///
/// Publish a value and every registered completion receives it; a completion added later
/// receives the current value as it is added (see below for an addition during a dispatch).
/// Observers are held weakly: an observer that is gone is never called again and its
/// registrations are pruned. The bag given to
/// ``add(observer:disposeBag:fileID:line:completion:)`` bounds each registration: when the bag is
/// disposed or deinitializes, the registration is removed. An observer that tracks the bag (the
/// usual case, as below) holds it, so the bag's end is the observer's: such a registration is not
/// checked for its observer on every delivery, and goes when the bag does. Each registration is an
/// `observer` entry in the bag's ledger, attributed to the bag's owner.
///
/// ```swift
/// final class Panel {
///     let bag = DisposeBag()
///     init(orientation: LiveData<Orientation>) {
///         bag.track(self)
///         orientation.add(observer: self, disposeBag: bag) { print("now", $0) }
///     }
/// }
/// let orientation = LiveData(Orientation.portrait)
/// var panel: Panel? = Panel(orientation: orientation)  // prints "now portrait"
/// orientation.publish(value: .landscapeLeft)            // prints "now landscapeLeft"
/// panel = nil                                           // the bag ends: the observer is removed
/// ```
///
/// Delivery is synchronous and ordered. Completions run on the publishing thread, in order of
/// registration, before ``publish(value:)`` returns — unless a dispatch is already in progress
/// (a publish or an addition from inside a completion, or a concurrent one from another thread):
/// then the dispatch in progress delivers, starting over, before it returns. A newer value
/// supersedes an older one mid-dispatch: no observer receives an older value after a newer one,
/// and every observer ends on the newest. Publishing, adding and removing from inside a
/// completion are safe.
///
/// Thread-safe; `Sendable` when `T` is. Completions are `@Sendable` because they may run on any
/// publishing thread. A `@MainActor` observer that publishes on the main actor reads its state in
/// `MainActor.assumeIsolated { … }`.
public final class LiveData<T> {
    @usableFromInline let storage: LiveDataStorage<T>

    /// Creates a LiveData with no value: observers receive nothing until the first publish.
    public init() {
        storage = LiveDataStorage(value: nil)
    }

    /// Creates a LiveData holding `value`: observers receive it as soon as they are added.
    public init(_ value: T) {
        storage = LiveDataStorage(value: value)
    }

    /// The latest value published, or nil before the first.
    public var value: T? { storage.value }

    /// How many registrations have an observer that is still alive.
    public var observerCount: Int { storage.observerCount }

    /// Stores `value` and delivers it to every observer before returning (see the type's
    /// discussion for publishes that land during a dispatch).
    @inlinable
    public func publish(value: T) {
        storage.publish(value)
    }

    /// Registers `completion` for `observer` until `disposeBag` ends, `observer` is gone, or
    /// ``remove(observer:)`` is called with it. Delivers the current value, if there is one,
    /// before returning — or, added while a dispatch runs (from a completion, or during a publish
    /// on another thread), by that dispatch, before it ends.
    ///
    /// Each call is its own registration: one observer may add several completions, called in
    /// the order they were added. `observer` is held weakly; `completion` is held until the
    /// registration is removed — capture the observer weakly in it. Adding with a bag that has
    /// already ended registers nothing.
    ///
    /// - Parameters:
    ///   - observer: The object whose life bounds the registration.
    ///   - disposeBag: The bag whose end removes the registration; its owner owns the ledger entry.
    ///   - completion: Called with each value, on the publishing thread.
    ///   - fileID: The file of the call site the ledger records; leave it to its default.
    ///   - line: The line of that call site; leave it to its default.
    public func add(
        observer: AnyObject, disposeBag: DisposeBag, fileID: StaticString = #fileID, line: UInt = #line,
        completion: @escaping @Sendable (T) -> Void
    ) {
        let entry = disposeBag.ledger.open(
            .observer, owner: disposeBag.ownerRecord, site: CallSite(fileID: fileID, line: line), bound: true)
        storage.register(
            observer: observer, lifetime: disposeBag, entry: entry, activation: .always,
            completion: completion)
    }

    /// Removes every registration of `observer`. A completion removed during a dispatch is not
    /// called again, not even by the dispatch in progress.
    public func remove(observer: AnyObject) {
        storage.remove(observer: observer)
    }
}

extension LiveData: Sendable where T: Sendable {}
