extension LedgerEntry {
    /// The entry of the tracked task running now, if any.
    ///
    /// Set by ``Lifetime/task(priority:fileID:line:operation:)``, ``Task/attributed(to:priority:fileID:line:operation:)``
    /// and `asyncSink` for the duration of their operation. Tether's async sequences call
    /// ``delivered()`` on it for each element they hand to the task, so a loop's deliveries
    /// (and its zombie deliveries, after its owner ended) are counted.
    @TaskLocal static var current: LedgerEntry?
}
