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
    /// The ledger entry of the running task, if it has one (see `Task.countDelivery()`): Tether's
    /// async sequences count each element they hand the task on it.
    @TaskLocal static var current: LedgerEntry?
}
