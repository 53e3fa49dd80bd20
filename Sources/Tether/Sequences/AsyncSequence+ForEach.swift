extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Runs `body` for each element of the sequence, in a task bound to `lifetime`: the loop stops
    /// when the lifetime ends, and on a lifetime that has already ended `body` never runs.
    ///
    /// The loop every `Task { [weak self] in for await … }` means to be, with nothing to store and
    /// no `self` held across it: `body` holds what it captures only while it runs, so a `[weak
    /// self]` body lets the owner go, and the owner's end stops the loop. The task is a `task`
    /// entry owned by the lifetime's owner, made at this call site; each element handed to
    /// `body` counts as a delivery on it. The entry ends when the loop does: cancelled (by the
    /// lifetime's end), ended (the sequence finished), or with the error the sequence threw,
    /// which the ledger's event log shows (`ended task ViewModel#1 threw …`).
    ///
    /// ```swift
    /// Observations { device.orientation }
    ///     .forEach(boundTo: lifetime) { [weak self] orientation in self?.apply(orientation) }
    /// ```
    ///
    /// The loop runs where `body` is isolated — the caller's actor, unless `body` says otherwise:
    /// from the main actor, the elements are read and `body` runs on the main actor, with no hop
    /// per element. Once the lifetime has ended (its owner first, then the task's cancel), no
    /// element is handed to `body` or counted, even one the sequence had already produced.
    ///
    /// - Parameters:
    ///   - lifetime: The lifetime whose end cancels the loop.
    ///   - priority: The priority of the loop's task.
    ///   - fileID: The file of the call site the ledger records; leave it to its default.
    ///   - line: The line of that call site; leave it to its default.
    ///   - body: Runs once per element, one at a time.
    /// - Returns: The loop's task, already bound; there is no need to store it. Thread-safe.
    @discardableResult
    public func forEach(
        boundTo lifetime: Lifetime, priority: TaskPriority? = nil, fileID: StaticString = #fileID,
        line: UInt = #line,
        @_inheritActorContext _ body: @escaping @Sendable @isolated(any) (Element) async -> Void
    ) -> Task<Void, Never> {
        let loop = BoundLoop(sequence: self, body: body)
        return lifetime.startTask(
            priority: priority, site: CallSite(fileID: fileID, line: line), counting: true, loop
        ) {
            loop, entry in
            await loop.run(counting: entry, isolation: loop.body.isolation)
        }
    }
}

/// A sequence and the body its elements go to.
struct BoundLoop<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    let sequence: Base
    let body: @Sendable @isolated(any) (Base.Element) async -> Void

    /// Hands each element to `body` until the sequence ends, throws or the lifetime ends;
    /// returns how the entry ends. Runs in `body`'s isolation, so that neither the elements nor
    /// the calls to `body` hop.
    func run(counting entry: LedgerEntry?, isolation: isolated (any Actor)?) async -> EndReason {
        let owner = entry?.owner
        var iterator = sequence.makeAsyncIterator()
        do {
            while let element = try await iterator.next(isolation: isolation) {
                // The lifetime ends its owner before it cancels the task: either says it has ended.
                guard owner?.hasEnded != true, !Task.isCancelled else { return .cancelled }
                // Counted once the owner was seen live: a delivery, never a zombie. Only this loop
                // counts on its entry, one element at a time: a load and a store, no locked add.
                if let entry {
                    entry.deliveries.store(entry.deliveries.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
                }
                await body(element)
            }
        } catch {
            return .failed(String(describing: error))
        }
        return Task.isCancelled ? .cancelled : .ended
    }
}
