extension LiveData {
    /// Calls `handler` with the values published while `owner` is at least started, until its
    /// lifecycle is destroyed or the owner is gone.
    ///
    /// The registration is *active* while the owner's lifecycle is `started` or `resumed`. When
    /// it becomes active it receives the latest value — once: falling back to `created` and
    /// starting again without a new value delivers nothing, and of several values published while
    /// it was inactive only the newest is delivered. While inactive its ledger entry is paused.
    ///
    /// ```swift
    /// final class OrientationScreen: LifecycleOwner {
    ///     let lifecycle = Lifecycle()
    ///     init(orientation: LiveData<Orientation>) {
    ///         lifecycle.lifetime.track(self)
    ///         orientation.observe(boundTo: self) { print("showing", $0) }
    ///     }
    /// }
    /// ```
    ///
    /// Lifetime: removed when the lifecycle reaches `destroyed`, when its lifetime ends (the owner
    /// deinitializes), by the first publish after the owner is gone (should something else still
    /// hold the lifecycle), or by ``remove(observer:)`` with `owner`. Nothing is registered when the
    /// lifecycle is already destroyed. The entry is an `observer` owned by the lifecycle lifetime's
    /// owner. Thread-safe; `handler` runs on the publishing thread, or on the thread that moved the
    /// lifecycle for the delivery made on activation.
    public func observe(
        boundTo owner: some LifecycleOwner, fileID: StaticString = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (T) -> Void
    ) {
        let lifecycle = owner.lifecycle
        guard lifecycle.state != .destroyed else { return }
        let lifetime = lifecycle.lifetime
        let entry = lifetime.ledger.open(
            .observer, owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line), bound: true)
        // Inactive until the lifecycle says otherwise, at once, below.
        entry?.setPaused(true)
        let isStarted: @Sendable () -> Bool = { [weak lifecycle] in
            (lifecycle?.state ?? .destroyed) >= .started
        }
        guard
            let key = storage.register(
                observer: owner, lifetime: lifetime, entry: entry, activation: .whileStarted(isStarted),
                completion: handler)
        else { return }
        // The handler holds the storage weakly and not the lifecycle: neither keeps the other alive.
        // At `destroyed` the lifecycle's lifetime ends, and that removes the registration.
        let token = lifecycle.observe(receiveCurrent: true) { [weak storage] state in
            storage?.setActive(state >= .started, key: key)
        }
        storage.attach(token, to: key)
    }
}
