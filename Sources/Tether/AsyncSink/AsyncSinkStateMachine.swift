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
/// books it under a new id; ``finished(id:)`` takes it out of the books. `.concurrent` is the
/// policy that always starts. A body is in the books from the decision on, before its task
/// exists: what cancels it (the sink's cancel, a later value for `.latest`) reaches it there, and
/// the body itself holds on to the cancel until its task is made.
///
/// Generic over the body so that its tests can book plain values; the storage uses it with one
/// concrete type, `any` ``AsyncSinkBody``.
struct AsyncSinkStateMachine<Body: Sendable> {
    /// A body in the books.
    enum Booked {
        case running(Body)
        /// Cancelled by a later value (`.latest`), not yet returned: kept until it returns, so that
        /// a cancel of the sink racing the cancel of the replaced body reaches it too.
        case replaced(Body)
    }

    enum ReceiveAction {
        case none
        /// Start `body` as `id`, after cancelling the bodies it replaces.
        case start(id: UInt64, body: Body, cancelling: [Body])
    }

    let overlap: AsyncSinkOverlap
    /// The bodies started and not returned, by id. Ids count up and are never reused: the id of a
    /// body that left the books never matches another.
    private var bodies: [UInt64: Booked] = [:]
    private var nextID: UInt64 = 0
    private var waiting = Deque<Body>()
    private(set) var isCancelled = false

    init(overlap: AsyncSinkOverlap) { self.overlap = overlap }

    /// How many bodies run (or are starting), replaced ones included until they return.
    var runningCount: Int { bodies.count }

    mutating func received(_ body: Body) -> ReceiveAction {
        guard !isCancelled else { return .none }
        switch overlap {
        case .concurrent:
            return .start(id: book(body), body: body, cancelling: [])
        case .serial:
            guard bodies.isEmpty else {
                waiting.append(body)
                return .none
            }
            return .start(id: book(body), body: body, cancelling: [])
        case .latest:
            let cancelling = replaceAll()
            return .start(id: book(body), body: body, cancelling: cancelling)
        case .dropWhileBusy:
            return bodies.isEmpty ? .start(id: book(body), body: body, cancelling: []) : .none
        }
    }

    /// A body returned (or was turned away). For `.serial`, the next waiting body to start.
    mutating func finished(id: UInt64) -> (id: UInt64, body: Body)? {
        bodies[id] = nil
        guard overlap == .serial, !isCancelled, bodies.isEmpty, let next = waiting.popFirst() else {
            return nil
        }
        return (book(next), next)
    }

    /// The sink is cancelled: every body to cancel, started or starting, and the values still
    /// waiting, to release after unlocking (a value's deinit may call out). No body starts from
    /// now on.
    mutating func cancel() -> (running: [Body], dropped: Deque<Body>) {
        guard !isCancelled else { return ([], []) }
        isCancelled = true
        var dropped = Deque<Body>()
        swap(&dropped, &waiting)
        let running = bodies.values.map { booked -> Body in
            switch booked {
            case .running(let body), .replaced(let body): body
            }
        }
        bodies = [:]
        return (running, dropped)
    }

    /// Books a body about to start; returns its id.
    private mutating func book(_ body: Body) -> UInt64 {
        let id = nextID
        nextID += 1
        bodies[id] = .running(body)
        return id
    }

    /// For `.latest`: marks the running bodies replaced and returns them, to cancel.
    private mutating func replaceAll() -> [Body] {
        var replaced: [Body] = []
        for (id, booked) in bodies {
            guard case .running(let body) = booked else { continue }
            replaced.append(body)
            bodies[id] = .replaced(body)
        }
        return replaced
    }
}
