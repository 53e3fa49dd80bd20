extension Task where Success == Void, Failure == Never {
    /// Starts a task *attributed* to `lifetime`'s owner in the ledger but not bound to it: the
    /// naive "forgot to store it" task, made visible.
    ///
    /// The task is not cancelled when the lifetime ends. Its `task` entry (bound: false) ends
    /// when `operation` returns, so a loop that outlives its owner shows up in the ledger, and
    /// the values Tether's async sequences hand it after the owner ended count as zombie
    /// deliveries. Use ``_Concurrency/Task/init(boundTo:priority:fileID:line:operation:)`` for the
    /// bound twin.
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
        let (entry, name) = lifetime.ledger.openTask(
            owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line), bound: false,
            counts: false)
        return Task(name: name.text, priority: priority) {
            await LedgerEntry.binding(entry) { await operation() }
            entry?.end(.ended)
        }
    }
}
