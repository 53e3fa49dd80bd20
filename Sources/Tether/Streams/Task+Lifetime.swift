import Synchronization

extension Task {
    /// Wraps the task in an `AnyCancellable` that cancels it when cancelled or released.
    ///
    /// The piggy-back that makes a task share a Combine subscription's lifetime: store the result
    /// wherever you store subscriptions. The task is a `task` entry in the current ``Ledger``,
    /// without an owner, until the cancellable is cancelled or released.
    ///
    /// ```swift
    /// let cancellable = Task { for await x in sequence { print(x) } }.asCancellable()
    /// ```
    ///
    /// - Returns: A cancellable that cancels the task when it is cancelled or deinitializes.
    ///
    /// Thread-safety: the task may be cancelled from any thread; the cancellable follows
    /// `AnyCancellable`'s rules (cancel it from one thread at a time).
    public func asCancellable(fileID: StaticString = #fileID, line: UInt = #line) -> AnyCancellable {
        let entry = Ledger.current.open(
            .task, owner: nil, site: CallSite(fileID: fileID, line: line), bound: false)
        return AnyCancellable {
            self.cancel()
            entry?.end(.cancelled)
        }
    }

    /// Stores the task in a set of cancellables: it is cancelled when the set releases it — when
    /// the object holding the set deinitializes.
    ///
    /// ```swift
    /// Task { [weak self] in
    ///     for await orientation in orientations { self?.apply(orientation) }
    /// }.store(in: &cancellables)
    /// ```
    ///
    /// The task is an unowned `task` entry in the current ``Ledger`` until then. Not thread-safe
    /// with respect to the set: like any `inout` access, store from the thread that owns it.
    public func store(in set: inout Set<AnyCancellable>, fileID: StaticString = #fileID, line: UInt = #line) {
        asCancellable(fileID: fileID, line: line).store(in: &set)
    }

    /// Binds the task to `lifetime`: it is cancelled when the lifetime ends (at once if it has).
    ///
    /// The task is a `task` entry owned by the lifetime's owner, made at this call site; the entry
    /// ends when the lifetime cancels it.
    ///
    /// ```swift
    /// Task { for await x in sequence { print(x) } }.store(in: lifetime)
    /// ```
    ///
    /// Thread-safe.
    public func store(in lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line) {
        lifetime.bind(.call { self.cancel() }, kind: .task, site: CallSite(fileID: fileID, line: line))
    }

}

extension Task where Success == Void, Failure == Never {
    /// Starts a task *attributed* to `lifetime`'s owner in the ledger but not bound to it: the
    /// naive "forgot to store it" task, made visible.
    ///
    /// The task is not cancelled when the lifetime ends. Its `task` entry (bound: false) ends
    /// when `operation` returns, so a loop that outlives its owner shows up in the ledger, and
    /// the values Tether's async sequences hand it after the owner ended count as zombie
    /// deliveries. Use ``Lifetime/task(priority:fileID:line:operation:)`` for the bound twin.
    ///
    /// ```swift
    /// Task.attributed(to: lifetime) {
    ///     for await _ in center.tetherNotifications(named: .rotated) { print("rotated") }
    /// }
    /// ```
    ///
    /// - Returns: The task; cancel it yourself. Thread-safe.
    @discardableResult
    public static func attributed(
        to lifetime: Lifetime, priority: TaskPriority? = nil, fileID: StaticString = #fileID,
        line: UInt = #line,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Void
    ) -> Task<Void, Never> {
        let entry = lifetime.ledger.open(
            .task, owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line), bound: false)
        return Task(priority: priority) {
            await LedgerEntry.$current.withValue(entry) { await operation() }
            entry?.end(.ended)
        }
    }

}

extension Lifetime {
    /// Starts a task bound to this lifetime: cancelled when the lifetime ends. On a lifetime that
    /// has already ended, the body never runs.
    ///
    /// The task is a `task` entry owned by the lifetime's owner, made at this call site. The entry
    /// ends when `operation` *returns*, not when it is cancelled: a loop that ignores cancellation
    /// stays visible, and leaks. While it runs, Tether's async sequences count each element they
    /// hand it as a delivery.
    ///
    /// ```swift
    /// lifetime.task {
    ///     for await _ in center.tetherNotifications(named: .rotated) { print("rotated") }
    /// }
    /// ```
    ///
    /// - Returns: The task, already bound; there is no need to store it. Thread-safe.
    @discardableResult
    public func task(
        priority: TaskPriority? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Void
    ) -> Task<Void, Never> {
        let entry = ledger.open(
            .task, owner: ownerRecord, site: CallSite(fileID: fileID, line: line), bound: true)
        // The lifetime may end before the task exists: the handle remembers a cancel that came first.
        let handle = TaskHandle()
        guard let token = insert(.call { handle.cancel() }, entry: nil) else {
            // Ended already: the body never runs.
            entry?.end(.cancelled)
            return Task(priority: priority) {}
        }
        let task = Task(priority: priority) { [weak self] in
            // Not before the handle has the task, where the lifetime's end reaches it; cancelled
            // before it began (the lifetime ended meanwhile), the body does not start.
            if await handle.gate.pass(), !Task.isCancelled {
                await LedgerEntry.$current.withValue(entry) { await operation() }
            }
            entry?.end(.ended)
            // Finished tasks do not stay in the lifetime.
            self?.remove(token)
        }
        handle.set(task)
        return task
    }
}

/// A task handle that can be cancelled before the task is known.
final class TaskHandle: Sendable {
    /// Opened once the handle has the task (and has cancelled it, if a cancel came first).
    let gate = TaskStartGate()

    private enum State {
        case waiting
        case cancelled
        case running(Task<Void, Never>)
        case done
    }

    private let state = Mutex(State.waiting)

    func set(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            switch state {
            case .waiting:
                state = .running(task)
                return false
            case .cancelled:
                state = .done
                return true
            case .running, .done:
                return false
            }
        }
        if cancelNow { task.cancel() }
        gate.open(admitting: true)
    }

    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            switch state {
            case .waiting:
                state = .cancelled
                return nil
            case .running(let task):
                state = .done
                return task
            case .cancelled, .done:
                return nil
            }
        }
        task?.cancel()
    }
}
