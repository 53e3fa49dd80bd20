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
    /// An entry bound to the task that runs for it (``LedgerEntry/bound``).
    struct TaskBinding: Sendable {
        let entry: LedgerEntry
        /// The running task's identity when it was bound.
        let task: Int?

        /// Binds `entry` to the running task.
        init(_ entry: LedgerEntry) {
            self.entry = entry
            task = TaskBinding.runningTask
        }

        static var runningTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }
    }

    /// The entry bound to the task that runs for it: `Lifetime.task`, `Task.attributed` and
    /// `asyncSink` bodies bind theirs around their operation.
    @TaskLocal static var bound: TaskBinding?

    /// The ledger entry of the running task, if it has one (see `Task.countDelivery()`): Tether's
    /// async sequences count each element they hand the task on it. A task started inside such
    /// a task inherits its binding (task-locals are copied) but is another task, with no entry:
    /// its deliveries are not the entry's (nor its owner's zombies).
    static var current: LedgerEntry? {
        guard let binding = bound, binding.task == TaskBinding.runningTask else { return nil }
        return binding.entry
    }
}
