extension Task where Success == Void, Failure == Never {
    /// Starts a task bound to `lifetime`: cancelled when the lifetime ends. On a lifetime that
    /// has already ended, the body never runs.
    ///
    /// The task is a `task` entry owned by the lifetime's owner, made at this call site. The entry
    /// ends when `operation` *returns*, not when it is cancelled: a loop that ignores cancellation
    /// stays visible, and leaks. While it runs, Tether's async sequences count each element they
    /// hand it as a delivery. The bound twin of
    /// ``_Concurrency/Task/attributed(to:priority:fileID:line:operation:)``.
    ///
    /// ```swift
    /// Task(boundTo: lifetime) {
    ///     for await _ in center.tetherNotifications(named: .rotated) { print("rotated") }
    /// }
    /// ```
    ///
    /// The task is already bound: there is no need to store it. Thread-safe.
    @discardableResult
    public init(
        boundTo lifetime: Lifetime, priority: TaskPriority? = nil, fileID: StaticString = #fileID,
        line: UInt = #line,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Void
    ) {
        let site = CallSite(fileID: fileID, line: line)
        self = lifetime.startTask(priority: priority, site: site, counting: false, operation) {
            operation, entry in
            await LedgerEntry.binding(entry) { await operation() }
            return .ended
        }
    }
}

extension Lifetime {
    /// Starts a task bound to this lifetime, a `task` entry at `site`, that runs `run(operation,
    /// entry)` and ends the entry as `run` says; on a lifetime that has ended, `run` never runs.
    ///
    /// `run` captures nothing (a function, not a closure with a context to allocate): what a
    /// caller hands its task is `operation`.
    func startTask<Operation>(
        priority: TaskPriority?, site: CallSite, counting counts: Bool, _ operation: sending Operation,
        run: @escaping @Sendable (Operation, LedgerEntry?) async -> EndReason
    ) -> Task<Void, Never> {
        let (entry, name) = ledger.openTask(owner: ownerRecord, site: site, bound: true, counts: counts)
        // The lifetime may end before the task exists: the handle remembers a cancel that came first.
        let handle = TaskHandle()
        guard let token = insert(.call { handle.cancel() }, entry: nil) else {
            // Ended already: the body never runs.
            entry?.end(.cancelled)
            return Task(name: name.text, priority: priority) {}
        }
        let task = Task(name: name.text, priority: priority) { [weak self] in
            var reason = EndReason.cancelled
            // Not before the handle has the task, where the lifetime's end reaches it; cancelled
            // before it began (the lifetime ended meanwhile), the body does not start.
            if await handle.slot.gate.pass(), !Task.isCancelled {
                reason = await run(operation, entry)
            }
            // Finished tasks do not stay in the lifetime. Taken out before the entry ends: once the
            // ledger counts the task ended, the task no longer holds the lifetime.
            self?.remove(token)
            entry?.end(reason)
        }
        handle.set(task)
        return task
    }
}

/// A task handle that can be cancelled before the task is known: a lifetime holds it from
/// before the task exists.
final class TaskHandle: Sendable {
    let slot = TaskSlot()

    /// Keeps the task, or cancels it if the lifetime ended meanwhile; then lets its body begin, or not.
    func set(_ task: Task<Void, Never>) { slot.set(task, entry: nil) }

    func cancel() { slot.cancel() }
}
