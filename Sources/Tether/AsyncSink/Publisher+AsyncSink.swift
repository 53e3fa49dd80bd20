extension Publisher where Failure == Never, Output: Sendable {
    /// Subscribes with an async closure: each value runs `receiveValue` in a task of `priority`.
    ///
    /// Each value starts its own task at once, unless `overlap` says otherwise (``AsyncSinkOverlap``).
    /// Cancelling the returned cancellable — or releasing it, or ending the lifetime it is stored
    /// in — cancels the subscription and *every* body still running (not only the last one), and
    /// no body starts after that. Finished bodies are not kept. Each body is a `task` entry in the
    /// ledger current at this call, ending when the body returns or is cancelled, and runs with
    /// that ledger current, whichever thread sent its value.
    ///
    /// ```swift
    /// values
    ///     .asyncSink(priority: .utility, overlap: .latest) { value in
    ///         await store.save(value)
    ///     }
    ///     .store(boundTo: lifetime)
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
        // The only generic code per value: binding the value to its body, and the body's task. The
        // bookkeeping around it (the storage, its state machine) is not generic.
        let subscription = sink { value in
            storage.receive(AsyncSinkValueBody(value, receiveValue))
        }
        return AnyCancellable {
            subscription.cancel()
            storage.cancel()
        }
    }
}

/// A value bound to the closure that receives it, and the slot of its task.
final class AsyncSinkValueBody<Value: Sendable>: AsyncSinkBody {
    private let value: Value
    private let receiveValue: @Sendable @isolated(any) (Value) async -> Void
    private let slot = TaskSlot()

    init(_ value: Value, _ receiveValue: @escaping @Sendable @isolated(any) (Value) async -> Void) {
        self.value = value
        self.receiveValue = receiveValue
    }

    /// The task runs the body with its entry bound to it (``LedgerEntry/current``), so that its
    /// deliveries count there. With the ledger off there is no entry, and nothing to bind (and no
    /// task-local to push). The task is made on the thread that sent the value, whose ledger may be
    /// another: the body runs with the subscription's current, so that what it makes records there.
    func start(id: UInt64, entry: LedgerEntry?, in storage: AsyncSinkStorage) {
        let task = Task(name: storage.taskName.text, priority: storage.priority) {
            if await self.slot.gate.pass(), !Task.isCancelled {
                await Ledger.$current.withValue(storage.ledger) {
                    await LedgerEntry.binding(entry) { await self.receiveValue(self.value) }
                }
            }
            storage.finished(id: id, entry: entry)
        }
        slot.set(task, entry: entry)
    }

    func cancel() { slot.cancel() }
}
