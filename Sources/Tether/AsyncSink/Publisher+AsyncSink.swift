extension Publisher where Failure == Never, Output: Sendable {
    /// Subscribes with an async closure: each value runs `receiveValue` in a task of `priority`.
    ///
    /// Each value starts its own task at once, unless `overlap` says otherwise (``AsyncSinkOverlap``).
    /// Cancelling the returned cancellable — or releasing it, or ending the lifetime it is stored
    /// in — cancels the subscription and *every* body still running (not only the last one), and
    /// no body starts after that. Finished bodies are not kept. Each body is a `task` entry in the
    /// ledger current at this call, ending when the body returns or is cancelled.
    ///
    /// ```swift
    /// values
    ///     .asyncSink(priority: .utility, overlap: .latest) { value in
    ///         await store.save(value)
    ///     }
    ///     .store(in: lifetime)
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of each body's task.
    ///   - overlap: What to do with a value that arrives while a body runs.
    ///   - receiveValue: The body, run once per value (per the overlap policy).
    ///   - fileID: The file of the call site the ledger records; leave it to its default.
    ///   - line: The line of that call site; leave it to its default.
    /// - Returns: A cancellable that cancels the subscription and every running body.
    ///
    /// Thread-safe: values may arrive on any thread; bodies run on the global executor (or on the
    /// closure's actor).
    public func asyncSink(
        priority: TaskPriority? = nil, overlap: AsyncSinkOverlap = .concurrent,
        fileID: StaticString = #fileID, line: UInt = #line,
        receiveValue: @escaping @Sendable @isolated(any) (Output) async -> Void
    ) -> AnyCancellable {
        let storage = AsyncSinkStorage(
            overlap: overlap, priority: priority, ledger: .current,
            site: CallSite(fileID: fileID, line: line))
        // The only generic code per value: binding the value to its body. The bookkeeping around
        // it (the ticket, the storage) is not generic.
        let subscription = sink { value in
            storage.receive(AsyncSinkStarter { ticket in asyncSinkBody(ticket, value, receiveValue) })
        }
        return AnyCancellable {
            subscription.cancel()
            storage.cancel()
        }
    }
}

/// The task that runs one value's body, with the body's ledger entry bound as
/// ``LedgerEntry/current`` so its deliveries count there. The body begins only once the storage
/// has the task in its books, where a cancel reaches it (``TaskStartGate``).
private func asyncSinkBody<Value: Sendable>(
    _ ticket: AsyncSinkTicket, _ value: Value,
    _ receiveValue: @escaping @Sendable @isolated(any) (Value) async -> Void
) -> Task<Void, Never> {
    Task(priority: ticket.priority) {
        if await ticket.gate.pass(), !Task.isCancelled {
            if ticket.bindsEntry {
                await LedgerEntry.$current.withValue(ticket.entry) {
                    await receiveValue(value)
                }
            } else {
                await receiveValue(value)
            }
        }
        ticket.finished()
    }
}
