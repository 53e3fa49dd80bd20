extension LiveData {
    /// Registers `completion` for `observer` until `disposeBag` ends, *attributed* to `lifetime`'s
    /// owner in the ledger but not bound to it: the naive registration with a bag that outlives
    /// its owner, made visible.
    ///
    /// The registration behaves as ``add(observer:disposeBag:fileID:line:completion:)`` with
    /// `disposeBag`: it is removed when the bag ends, when `observer` is gone, or by
    /// ``remove(observer:)``. Its `observer` entry (bound: false) is owned by `lifetime`'s owner,
    /// so when that owner ends while the bag lives on, the registration is named in the leak and
    /// the values it still receives count as zombie deliveries. The bound twin is `add` with a bag
    /// the owner ends.
    ///
    /// ```swift
    /// // A bag kept by something long-lived: the panel is never removed.
    /// orientation.add(observer: panel, disposeBag: appBag, attributedTo: model.lifetime) { value in
    ///     panel.show(value)
    /// }
    /// ```
    ///
    /// Thread-safe, as ``add(observer:disposeBag:fileID:line:completion:)``.
    public func add(
        observer: AnyObject, disposeBag: DisposeBag, attributedTo lifetime: Lifetime,
        fileID: StaticString = #fileID, line: UInt = #line, completion: @escaping @Sendable (T) -> Void
    ) {
        let entry = lifetime.ledger.open(
            .observer, owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line), bound: false)
        storage.register(
            observer: observer, lifetime: disposeBag, entry: entry, activation: .always,
            completion: completion)
    }
}
