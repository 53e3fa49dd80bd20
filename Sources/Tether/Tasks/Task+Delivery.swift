import Synchronization

extension Task where Success == Never, Failure == Never {
    /// Counts one value handed to the running task as a delivery on its ledger entry.
    ///
    /// Tasks with an entry are those started by ``Lifetime/task(priority:fileID:line:operation:)``
    /// and ``attributed(to:priority:fileID:line:operation:)``, and `asyncSink` bodies; elsewhere
    /// this does nothing. Tether's async sequences count what they hand such a task by
    /// themselves: call this where it receives a value some other way — a progress step, a
    /// callback's result — so its deliveries, and its zombie deliveries after its owner's end,
    /// show in the ledger.
    ///
    /// ```swift
    /// Task.attributed(to: lifetime) {
    ///     for step in 1...10 {
    ///         try? await clock.sleep(for: .milliseconds(100))
    ///         Task.countDelivery()
    ///     }
    /// }
    /// ```
    ///
    /// Thread-safe; one atomic increment.
    public static func countDelivery() {
        LedgerEntry.current?.delivered()
    }
}

extension LedgerEntry {
    /// An entry bound to the task that runs for it, for as long as its operation runs.
    ///
    /// A task started inside the operation inherits the binding (task-locals are copied) but is
    /// another task: it is told apart by the running task's identity, its address. Once the
    /// operation returns the binding names no task: the task is freed, and a task made later may
    /// take its address.
    final class TaskBinding: Sendable {
        let entry: LedgerEntry
        /// The running task's identity when it was bound.
        let task: TaskIdentity?
        private let ended = Atomic<Bool>(false)

        /// Binds `entry` to the running task.
        init(_ entry: LedgerEntry) {
            self.entry = entry
            task = TaskIdentity.current
        }

        /// Whether the running task is the one bound, its operation still running.
        var isRunningTask: Bool { !ended.load(ordering: .acquiring) && task == TaskIdentity.current }

        /// The operation returned.
        func end() { ended.store(true, ordering: .releasing) }
    }

    /// The entry bound to the task that runs for it: `Lifetime.task`, `Task.attributed` and
    /// `asyncSink` bodies bind theirs around their operation.
    @TaskLocal static var bound: TaskBinding?

    /// Runs `operation` with `entry` bound to the running task (``current``); with no entry (the
    /// ledger off) there is nothing to bind, and no task-local to push.
    static func binding(
        _ entry: LedgerEntry?, isolation: isolated (any Actor)? = #isolation,
        around operation: () async -> Void
    ) async {
        guard let entry else { return await operation() }
        let binding = TaskBinding(entry)
        await $bound.withValue(binding) { await operation() }
        binding.end()
    }

    /// The ledger entry of the running task, if it has one (see `Task.countDelivery()`): Tether's
    /// async sequences count each element they hand the task on it. A task started inside such
    /// a task inherits its binding but is another task, with no entry: its deliveries are not the
    /// entry's (nor its owner's zombies).
    static var current: LedgerEntry? {
        guard let binding = bound, binding.isRunningTask else { return nil }
        return binding.entry
    }
}
