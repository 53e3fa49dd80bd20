extension ObservedProperty {
    /// Observes with an observation *attributed* to `lifetime`'s owner but not bound to it: the
    /// naive observation that outlives its owner, made visible.
    ///
    /// The twin of ``observe(_:boundTo:fileID:line:using:)`` that `sink(attributedTo:)` is to
    /// `sink(boundTo:)`: the observation is an `observer` entry (bound: false) owned by the
    /// lifetime's owner, but it is not removed when the lifetime ends — only by ``remove(_:)``,
    /// by being made obsolete and purged, or when the property deinitializes. A handler that
    /// captures its owner strongly therefore keeps it alive, and the ledger reports the leak at
    /// this call site; values it receives after the owner ended count as zombie deliveries.
    ///
    /// ```swift
    /// $x.observe(.did, attributedTo: lifetime) { new, _ in self.show(new) }  // a cycle, made visible
    /// ```
    ///
    /// - Returns: The observation. Thread-safe.
    @discardableResult
    public func observe(
        _ kind: ObservationType, attributedTo lifetime: Lifetime, fileID: StaticString = #fileID,
        line: UInt = #line, using handler: @escaping @Sendable (Value, Value?) -> Void
    ) -> PropertyObservation {
        let entry = lifetime.ledger.open(
            .observer, owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line), bound: false)
        return storage.observe(kind, entry: entry, lifetime: nil, handler: handler)
    }
}
