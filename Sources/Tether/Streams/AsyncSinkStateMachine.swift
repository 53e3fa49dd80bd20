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
/// concrete type, ``AsyncSinkJob``, so the compiler specializes it there and the per-value path
/// looks no metadata up.
struct AsyncSinkStateMachine<Value: Sendable> {
    /// A started body, before and after its task is known.
    private enum Slot {
        case starting
        case running(Task<Void, Never>, LedgerEntry?)
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
    private var slots: [UInt64: Slot] = [:]
    private var waiting = Deque<Value>()
    private var nextID: UInt64 = 0
    private(set) var isCancelled = false

    init(overlap: AsyncSinkOverlap) { self.overlap = overlap }

    /// How many bodies run (or are starting).
    var runningCount: Int { slots.count }

    mutating func received(_ value: Value) -> ReceiveAction {
        guard !isCancelled else { return .none }
        switch overlap {
        case .concurrent:
            return .start(id: takeSlot(), value: value, cancelling: [])
        case .serial:
            guard slots.isEmpty else {
                waiting.append(value)
                return .none
            }
            return .start(id: takeSlot(), value: value, cancelling: [])
        case .latest:
            // Cancelled bodies leave the books now; a body still starting finds its slot gone
            // when it registers, and is cancelled then.
            let cancelling = takeAllRunning()
            return .start(id: takeSlot(), value: value, cancelling: cancelling)
        case .dropWhileBusy:
            guard slots.isEmpty else { return .none }
            return .start(id: takeSlot(), value: value, cancelling: [])
        }
    }

    /// A body's task now exists. Returns false when it must be cancelled at once: the sink was
    /// cancelled, or a later value replaced it, while it was starting.
    mutating func registered(id: UInt64, task: Task<Void, Never>, entry: LedgerEntry?) -> Bool {
        guard !isCancelled, case .starting = slots[id] else { return false }
        slots[id] = .running(task, entry)
        return true
    }

    /// A body returned. For `.serial`, the next waiting value to start.
    mutating func finished(id: UInt64) -> (id: UInt64, value: Value)? {
        slots[id] = nil
        guard overlap == .serial, !isCancelled, slots.isEmpty, let next = waiting.popFirst() else {
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

    private mutating func takeSlot() -> UInt64 {
        let id = nextID
        nextID += 1
        slots[id] = .starting
        return id
    }

    private mutating func takeAllRunning() -> [Running] {
        var running: [Running] = []
        for case .running(let task, let entry) in slots.values {
            running.append(Running(task: task, entry: entry))
        }
        slots.removeAll()
        return running
    }
}
