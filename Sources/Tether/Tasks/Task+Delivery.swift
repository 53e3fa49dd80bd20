extension Task where Success == Never, Failure == Never {
    /// Counts one value handed to the tracked task running now as a delivery on its ledger entry.
    ///
    /// Tether's async sequences count the elements they hand a tracked task by themselves. Call
    /// this where such a task receives a value some other way — a progress step, a callback's
    /// result — so its deliveries, and its zombie deliveries once its owner has ended, show in
    /// the ledger. Tracked tasks are those started by ``Lifetime/task(priority:fileID:line:operation:)``,
    /// ``attributed(to:priority:fileID:line:operation:)`` and `asyncSink`
    /// bodies; elsewhere this does nothing.
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
