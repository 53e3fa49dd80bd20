import Synchronization

/// The states of a screen, as on Android: created → started → resumed while it is on top,
/// back to started when covered, destroyed when dismissed.
///
/// `destroyed` is final and ends the lifecycle's ``lifetime``. Thread-safe: moves may come from
/// any thread; observers run before ``move(to:)`` returns, except that a move made while another
/// move is notifying (re-entrantly, from an observer, or from another thread) is notified by the
/// move already in progress, in order, after its own steps. An observer added meanwhile is told
/// its first state by that move too, so no observer hears two states at once or out of order.
///
/// ```swift
/// let lifecycle = Lifecycle()
/// lifecycle.move(to: .resumed)      // observers see created, started, resumed
/// lifecycle.move(to: .started)      // covered by a sheet
/// lifecycle.move(to: .destroyed)    // dismissed: the lifetime ends
/// ```
public final class Lifecycle: Sendable {
    /// A lifecycle state. Ordered: `destroyed < initialized < created < started < resumed`.
    public enum State: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
        case destroyed, initialized, created, started, resumed

        public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .destroyed: "destroyed"
            case .initialized: "initialized"
            case .created: "created"
            case .started: "started"
            case .resumed: "resumed"
            }
        }
    }

    /// One `observe` registration. `cancelled` is set by its cancel before it leaves the list,
    /// so a step already being told skips it without looking the list up again.
    private final class Observer: Sendable {
        let handler: @Sendable (State) -> Void
        let cancelled = Atomic<Bool>(false)

        init(_ handler: @escaping @Sendable (State) -> Void) { self.handler = handler }
    }

    private struct Storage {
        var state: State = .initialized
        /// The last state taken out of `undelivered` to be told: what an observer added now is told
        /// first, before the steps still to come.
        var told: State = .initialized
        /// States reached but not yet told to observers, oldest first.
        var undelivered: [State] = []
        /// Observers added with `receiveCurrent`, each with the state it is to be told first:
        /// told by whoever is telling the steps, before the next one.
        var joining: [(observer: Observer, state: State)] = []
        var delivering = false
        var observers: [Observer] = []
    }

    /// Ends when the lifecycle reaches `destroyed`; bindings owned by the screen go in it.
    public let lifetime: Lifetime
    private let storage = Mutex(Storage())

    /// Creates a lifecycle at `initialized`.
    public init(ledger: Ledger = .current) {
        lifetime = Lifetime(ledger: ledger)
    }

    /// The current state.
    public var state: State { storage.withLock { $0.state } }

    /// Moves to `target`, one step at a time (resumed → destroyed passes started and created),
    /// telling observers each step. Moving from `destroyed`, or to the current state, does nothing.
    public func move(to target: State) {
        let start = storage.withLock { storage -> Bool in
            guard storage.state != .destroyed, storage.state != target else { return false }
            var current = storage.state
            if target == .destroyed {
                // Falling to destroyed passes every state down to created.
                while current > .created {
                    current = State(rawValue: current.rawValue - 1)!
                    storage.undelivered.append(current)
                }
                current = .destroyed
                storage.undelivered.append(current)
            } else {
                while current != target {
                    current = State(rawValue: current.rawValue + (target > current ? 1 : -1))!
                    storage.undelivered.append(current)
                }
            }
            storage.state = target
            guard !storage.delivering else { return false }
            storage.delivering = true
            return true
        }
        guard start else { return }
        deliver()
    }

    /// Calls `handler` with every state the lifecycle moves to, until the returned token is
    /// cancelled or released, or the lifecycle is destroyed (after `destroyed` is delivered).
    ///
    /// - Parameters:
    ///   - receiveCurrent: Whether to call `handler` with the current state first: at once, or,
    ///     while a move is being told, by the thread telling it (the step being told, before the
    ///     steps after it).
    ///   - handler: Called with each state, on the thread that moves the lifecycle.
    public func observe(
        receiveCurrent: Bool = true, _ handler: @escaping @Sendable (State) -> Void
    ) -> AnyCancellable {
        let observer = Observer(handler)
        let start = storage.withLock { storage -> Bool in
            if storage.state != .destroyed || storage.delivering {
                storage.observers.append(observer)
            }
            guard receiveCurrent else { return false }
            // While a move is being told, the state being told, not the one it moves to: the
            // steps still to come follow, in order.
            storage.joining.append((observer, storage.told))
            guard !storage.delivering else { return false }
            storage.delivering = true
            return true
        }
        if start { deliver() }
        return AnyCancellable { [weak self] in
            observer.cancelled.store(true, ordering: .releasing)
            let removed = self?.storage.withLock { storage in
                storage.observers.firstIndex { $0 === observer }.map { storage.observers.remove(at: $0) }
            }
            _ = removed  // the handler is released here, after unlocking
        }
    }

    /// What ``deliver()`` tells next: observers that joined their first state, or a step.
    private enum Telling {
        case first([(observer: Observer, state: State)])
        case step(State, [Observer])
    }

    /// Tells observers that joined their first state and every step not yet told, until none is
    /// left. One thread at a time: the one that set `delivering`.
    private func deliver() {
        while true {
            let next = storage.withLock { storage -> Telling? in
                if !storage.joining.isEmpty {
                    defer { storage.joining = [] }
                    return .first(storage.joining)
                }
                guard !storage.undelivered.isEmpty else {
                    storage.delivering = false
                    return nil
                }
                storage.told = storage.undelivered.removeFirst()
                return .step(storage.told, storage.observers)
            }
            switch next {
            case nil:
                return
            case .first(let joining):
                for (observer, state) in joining where !observer.cancelled.load(ordering: .acquiring) {
                    observer.handler(state)
                }
            case .step(let state, let observers):
                // One cancelled by an earlier handler of the same step is not told it.
                for observer in observers where !observer.cancelled.load(ordering: .acquiring) {
                    observer.handler(state)
                }
                if state == .destroyed {
                    let released = storage.withLock { storage in
                        defer { storage.observers.removeAll() }
                        return storage.observers
                    }
                    _ = released
                    lifetime.end()
                }
            }
        }
    }
}

/// An object with a ``Lifecycle``: a screen. LiveData observers and `repeatOnLifecycle` bound to
/// it are active only while it is at least started.
public protocol LifecycleOwner: AnyObject {
    var lifecycle: Lifecycle { get }
}
