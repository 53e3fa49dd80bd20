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
/// Every body starts the same way, whatever the policy: ``received(_:)`` decides to start it and
/// books it as starting under a new id; once its task exists, ``registered(id:task:entry:)`` books
/// the task, or turns it away if the sink was cancelled (or, for `.latest`, a later value replaced
/// it) meanwhile; ``finished(id:)`` takes it out of the books. `.concurrent` is the policy that
/// always starts.
///
/// Generic over what waits so that its tests can queue plain values; the storage uses it with one
/// concrete type, `any` ``AsyncSinkBody``.
struct AsyncSinkStateMachine<Value: Sendable> {
    /// A body in the books.
    enum Body {
        /// Decided on; its task does not exist yet.
        case starting
        case running(Running)
        /// Cancelled by a later value (`.latest`), not yet returned: kept until it returns, so that
        /// a cancel of the sink racing the cancel of the replaced body reaches it too.
        case replaced(Running)
    }

    /// A running body to cancel: its task and its ledger entry.
    struct Running: Sendable {
        let task: Task<Void, Never>
        let entry: LedgerEntry?
    }

    enum ReceiveAction {
        case none
        /// Start `value`'s body as `id`, after cancelling the bodies it replaces.
        case start(id: UInt64, value: Value, cancelling: [Running])
    }

    let overlap: AsyncSinkOverlap
    /// The bodies started and not returned, by id. Ids count up and are never reused: the id of a
    /// body that left the books never matches another.
    private var bodies: [UInt64: Body] = [:]
    private var nextID: UInt64 = 0
    private var waiting = Deque<Value>()
    private(set) var isCancelled = false

    init(overlap: AsyncSinkOverlap) { self.overlap = overlap }

    /// How many bodies run (or are starting), replaced ones included until they return.
    var runningCount: Int { bodies.count }

    mutating func received(_ value: Value) -> ReceiveAction {
        guard !isCancelled else { return .none }
        switch overlap {
        case .concurrent:
            return .start(id: book(), value: value, cancelling: [])
        case .serial:
            guard bodies.isEmpty else {
                waiting.append(value)
                return .none
            }
            return .start(id: book(), value: value, cancelling: [])
        case .latest:
            let cancelling = replaceAll()
            return .start(id: book(), value: value, cancelling: cancelling)
        case .dropWhileBusy:
            return bodies.isEmpty ? .start(id: book(), value: value, cancelling: []) : .none
        }
    }

    /// A body's task now exists. Returns false when it must be cancelled at once: the sink was
    /// cancelled, or a later value replaced it, while it was starting.
    mutating func registered(id: UInt64, task: Task<Void, Never>, entry: LedgerEntry?) -> Bool {
        guard !isCancelled, let index = bodies.index(forKey: id), case .starting = bodies.values[index] else {
            return false
        }
        bodies.values[index] = .running(Running(task: task, entry: entry))
        return true
    }

    /// A body returned (or was turned away). For `.serial`, the next waiting value to start.
    mutating func finished(id: UInt64) -> (id: UInt64, value: Value)? {
        bodies[id] = nil
        guard overlap == .serial, !isCancelled, bodies.isEmpty, let next = waiting.popFirst() else {
            return nil
        }
        return (book(), next)
    }

    /// The sink is cancelled: every body to cancel; no value starts from now on.
    mutating func cancel() -> [Running] {
        guard !isCancelled else { return [] }
        isCancelled = true
        waiting.removeAll()
        let running = bodies.values.compactMap { body -> Running? in
            switch body {
            case .starting: nil
            case .running(let running), .replaced(let running): running
            }
        }
        bodies = [:]
        return running
    }

    /// Books a body about to start; returns its id.
    private mutating func book() -> UInt64 {
        let id = nextID
        nextID += 1
        bodies[id] = .starting
        return id
    }

    /// For `.latest`: marks the running bodies replaced and returns them, to cancel. A body still
    /// starting leaves the books now: it is turned away when it registers.
    private mutating func replaceAll() -> [Running] {
        var running: [Running] = []
        for (id, body) in bodies {
            switch body {
            case .replaced:
                continue
            case .starting:
                bodies[id] = nil
            case .running(let body):
                running.append(body)
                bodies[id] = .replaced(body)
            }
        }
        return running
    }
}
