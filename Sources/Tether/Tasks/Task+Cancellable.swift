extension Task {
    /// Wraps the task in an `AnyCancellable` that cancels it when cancelled or released.
    ///
    /// The piggy-back that makes a task share a Combine subscription's lifetime: store the result
    /// wherever you store subscriptions. The task is a `task` entry in the current ``Ledger``,
    /// without an owner, until the cancellable is cancelled or released.
    ///
    /// ```swift
    /// let cancellable = Task { for await x in sequence { print(x) } }.asCancellable()
    /// ```
    ///
    /// - Returns: A cancellable that cancels the task when it is cancelled or deinitializes.
    ///
    /// Thread-safety: the task may be cancelled from any thread; the cancellable follows
    /// `AnyCancellable`'s rules (cancel it from one thread at a time).
    public func asCancellable(fileID: StaticString = #fileID, line: UInt = #line) -> AnyCancellable {
        let entry = Ledger.current.open(
            .task, owner: nil, site: CallSite(fileID: fileID, line: line), bound: false, counts: false)
        return AnyCancellable {
            self.cancel()
            entry?.end(.cancelled)
        }
    }

    /// Stores the task in a set of cancellables: it is cancelled when the set releases it — when
    /// the object holding the set deinitializes.
    ///
    /// ```swift
    /// Task { [weak self] in
    ///     for await orientation in orientations { self?.apply(orientation) }
    /// }.store(in: &cancellables)
    /// ```
    ///
    /// The task is an unowned `task` entry in the current ``Ledger`` until then. Not thread-safe
    /// with respect to the set: like any `inout` access, store from the thread that owns it.
    public func store(in set: inout Set<AnyCancellable>, fileID: StaticString = #fileID, line: UInt = #line) {
        asCancellable(fileID: fileID, line: line).store(in: &set)
    }

    /// Binds the task to `lifetime`: it is cancelled when the lifetime ends (at once if it has).
    ///
    /// The task is a `task` entry owned by the lifetime's owner, made at this call site; the entry
    /// ends when the lifetime cancels it. To start a task already bound, use
    /// `Task(boundTo:priority:fileID:line:operation:)`.
    ///
    /// ```swift
    /// Task { for await x in sequence { print(x) } }.store(boundTo: lifetime)
    /// ```
    ///
    /// - Returns: The token that takes the task out of the lifetime again, uncancelled. Thread-safe.
    @discardableResult
    public func store(boundTo lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line)
        -> Lifetime.Token
    {
        lifetime.bind(.call { self.cancel() }, kind: .task, site: CallSite(fileID: fileID, line: line))
            ?? .ended
    }
}
