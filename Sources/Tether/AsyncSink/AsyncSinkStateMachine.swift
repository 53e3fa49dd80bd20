import DequeModule

/// How an `asyncSink` runs a value's body while an earlier body is still running.
public enum AsyncSinkOverlap: Sendable, Hashable {
    /// Every value starts its body at once; bodies run side by side. The default.
    case concurrent
    /// One body at a time, in the order the values arrived; later values wait their turn.
    case serial
    /// A new value cancels the running body and starts its own.
    case latest
    /// A value arriving while a body runs is dropped.
    case dropWhileBusy
}

/// The bookkeeping of an `asyncSink`: which bodies run, which values wait. Pure: it decides, its
/// storage acts (starts and cancels tasks) after unlocking.
///
/// Generic over what waits so that its tests can queue plain values; the storage uses it with one
/// concrete type, ``AsyncSinkStarter``, so the compiler specializes it there and the per-value path
/// looks no metadata up.
struct AsyncSinkStateMachine<Value: Sendable> {
    /// One place in the books: free, or holding a body before and after its task is known.
    ///
    /// The books are a slab, not a dictionary: a body's id is its slot's index and the slot's
    /// generation, so finding it needs no hashing, and freed slots are reused (the books hold as
    /// many slots as bodies ever ran at once). The generation, bumped on each reuse, keeps the id
    /// of a body that left the books (replaced by `.latest` while starting, cancelled) from
    /// matching a newer one.
    private struct Slot {
        enum State {
            case free(nextFree: Int)
            case starting
            case running(Task<Void, Never>, LedgerEntry?)
            /// Cancelled by a later value (`.latest`), not yet returned: kept until it returns, so
            /// that a cancel of the sink racing the cancel of the replaced body reaches it too.
            case replaced(Task<Void, Never>, LedgerEntry?)
        }

        var generation: UInt32
        var state: State
    }

    /// A running body to cancel: its task and its ledger entry.
    struct Running: Sendable {
        let task: Task<Void, Never>
        let entry: LedgerEntry?
    }

    enum ReceiveAction {
        case none
        case start(id: UInt64, value: Value, cancelling: [Running])
    }

    let overlap: AsyncSinkOverlap
    private var slots: [Slot] = []
    /// The first free slot; the free ones are chained through `nextFree`. -1 when none is free.
    private var firstFree = -1
    private var waiting = Deque<Value>()
    private(set) var isCancelled = false
    /// How many bodies run (or are starting), replaced ones included until they return.
    private(set) var runningCount = 0

    init(overlap: AsyncSinkOverlap) { self.overlap = overlap }

    mutating func received(_ value: Value) -> ReceiveAction {
        guard !isCancelled else { return .none }
        switch overlap {
        case .concurrent:
            return .start(id: takeSlot(), value: value, cancelling: [])
        case .serial:
            guard runningCount == 0 else {
                waiting.append(value)
                return .none
            }
            return .start(id: takeSlot(), value: value, cancelling: [])
        case .latest:
            // The running bodies stay in the books, as replaced, until they return: the caller
            // cancels them after unlocking, and a cancel of the sink meanwhile must reach them
            // too. A body still starting leaves the books now; it finds its slot gone when it
            // registers, and is refused then.
            let cancelling = replaceAll()
            return .start(id: takeSlot(), value: value, cancelling: cancelling)
        case .dropWhileBusy:
            guard runningCount == 0 else { return .none }
            return .start(id: takeSlot(), value: value, cancelling: [])
        }
    }

    /// For `.concurrent` only: a value's body has its task already, made before this lock was
    /// taken (nothing has to wait for a decision); puts it in the books as running and returns its
    /// id. Nil once cancelled: the caller cancels the task.
    mutating func startedConcurrentBody(task: Task<Void, Never>, entry: LedgerEntry?) -> UInt64? {
        precondition(overlap == .concurrent, "only concurrent bodies start without a decision")
        guard !isCancelled else { return nil }
        return takeSlot(as: .running(task, entry))
    }

    /// A body's task now exists. Returns false when it must be cancelled at once: the sink was
    /// cancelled, or a later value replaced it, while it was starting.
    mutating func registered(id: UInt64, task: Task<Void, Never>, entry: LedgerEntry?) -> Bool {
        guard !isCancelled, let index = index(of: id), case .starting = slots[index].state else {
            return false
        }
        slots[index].state = .running(task, entry)
        return true
    }

    /// A body returned. For `.serial`, the next waiting value to start.
    mutating func finished(id: UInt64) -> (id: UInt64, value: Value)? {
        if let index = index(of: id) { free(index) }
        guard overlap == .serial, !isCancelled, runningCount == 0, let next = waiting.popFirst() else {
            return nil
        }
        return (takeSlot(), next)
    }

    /// The sink is cancelled: every body to cancel; no value starts from now on.
    mutating func cancel() -> [Running] {
        guard !isCancelled else { return [] }
        isCancelled = true
        waiting.removeAll()
        return takeAllRunning()
    }

    private mutating func takeSlot(as state: Slot.State = .starting) -> UInt64 {
        runningCount += 1
        let index: Int
        if firstFree >= 0 {
            index = firstFree
            guard case .free(let nextFree) = slots[index].state else {
                preconditionFailure("a taken slot is chained free")
            }
            firstFree = nextFree
            slots[index].generation &+= 1
            slots[index].state = state
        } else {
            index = slots.count
            slots.append(Slot(generation: 0, state: state))
        }
        return UInt64(slots[index].generation) << 32 | UInt64(index)
    }

    /// The slot of a body still in the books; nil if it left them.
    private func index(of id: UInt64) -> Int? {
        let index = Int(truncatingIfNeeded: id & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].generation == UInt32(truncatingIfNeeded: id >> 32) else {
            return nil
        }
        if case .free = slots[index].state { return nil }
        return index
    }

    private mutating func free(_ index: Int) {
        slots[index].state = .free(nextFree: firstFree)
        firstFree = index
        runningCount -= 1
    }

    private mutating func takeAllRunning() -> [Running] {
        var running: [Running] = []
        for index in slots.indices {
            switch slots[index].state {
            case .free:
                continue
            case .starting:
                break
            case .running(let task, let entry), .replaced(let task, let entry):
                running.append(Running(task: task, entry: entry))
            }
            free(index)
        }
        return running
    }

    /// For `.latest`: marks the running bodies replaced and returns them, to cancel; frees the
    /// slots of bodies still starting.
    private mutating func replaceAll() -> [Running] {
        var running: [Running] = []
        for index in slots.indices {
            switch slots[index].state {
            case .free, .replaced:
                continue
            case .starting:
                free(index)
            case .running(let task, let entry):
                running.append(Running(task: task, entry: entry))
                slots[index].state = .replaced(task, entry)
            }
        }
        return running
    }
}
