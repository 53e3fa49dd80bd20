// Tether's old spellings, kept for one release so that code written against them still compiles,
// with a warning that names the new spelling (and a fix-it where the call keeps its receiver).
// Each forwards to the new spelling, call site included.

extension Lifetime {
    @available(*, deprecated, renamed: "init(boundTo:ledger:)")
    public convenience init(parent: Lifetime?, ledger: Ledger = .current) {
        self.init(boundTo: parent, ledger: ledger)
    }

    // Not `renamed:`: its fix-it would relabel the arguments in place, the ledger as the parent.
    @available(
        *, deprecated, message: "use Lifetime(boundTo: parent, ledger: ledger): the parent comes first"
    )
    public convenience init(ledger: Ledger, parent: Lifetime?) {
        self.init(boundTo: parent, ledger: ledger)
    }

    @available(*, deprecated, message: "a DisposeBag is a Lifetime: use the bag itself")
    public var lifetime: Lifetime { self }

    @available(*, deprecated, renamed: "onEnd(_:)")
    @discardableResult
    public func add(_ work: @escaping @Sendable () -> Void) -> Token {
        onEnd(work)
    }

    @available(*, deprecated, renamed: "onEnd(_:)")
    public func onDispose(_ action: @escaping @Sendable () -> Void) {
        onEnd(action)
    }

    @available(*, deprecated, message: "bind the subscription with cancellable.store(boundTo: lifetime)")
    @discardableResult
    public func add(_ cancellable: AnyCancellable, fileID: StaticString = #fileID, line: UInt = #line)
        -> Token
    {
        cancellable.store(boundTo: self, fileID: fileID, line: line)
    }

    @available(*, deprecated, message: "bind the subscription with cancellable.store(boundTo: bag)")
    public func insert(_ cancellable: AnyCancellable, fileID: StaticString = #fileID, line: UInt = #line) {
        cancellable.store(boundTo: self, fileID: fileID, line: line)
    }

    @available(*, deprecated, message: "start the task with Task(boundTo: lifetime) { … }")
    @discardableResult
    public func task(
        priority: TaskPriority? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Void
    ) -> Task<Void, Never> {
        Task(boundTo: self, priority: priority, fileID: fileID, line: line, operation: operation)
    }
}

extension AnyCancellable {
    @available(*, deprecated, renamed: "store(boundTo:fileID:line:)")
    public func store(in lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line) {
        store(boundTo: lifetime, fileID: fileID, line: line)
    }
}

extension Task {
    @available(*, deprecated, renamed: "store(boundTo:fileID:line:)")
    public func store(in lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line) {
        store(boundTo: lifetime, fileID: fileID, line: line)
    }
}

extension ObservedProperty {
    @available(*, deprecated, renamed: "observe(_:boundTo:fileID:line:using:)")
    @discardableResult
    public func observe(
        _ kind: ObservationType, in lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line,
        using handler: @escaping @Sendable (Value, Value?) -> Void
    ) -> PropertyObservation {
        observe(kind, boundTo: lifetime, fileID: fileID, line: line, using: handler)
    }
}

extension LiveData {
    @available(*, deprecated, renamed: "observe(boundTo:fileID:line:_:)")
    public func observe(
        _ owner: some LifecycleOwner, fileID: StaticString = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (T) -> Void
    ) {
        observe(boundTo: owner, fileID: fileID, line: line, handler)
    }
}

extension Ledger {
    @available(*, deprecated, renamed: "snapshotRearmingOnChange()")
    public func snapshot() -> LedgerSnapshot { snapshotRearmingOnChange() }

    @available(*, deprecated, renamed: "countersRearmingOnChange()")
    public func takeCounters() -> LedgerSnapshot.Counters { countersRearmingOnChange() }
}
