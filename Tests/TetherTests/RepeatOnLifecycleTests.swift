import Synchronization
import Testing

@testable import Tether

/// What a repeated block and its caller did, in order.
enum RunEvent: Equatable, Sendable {
    case started(Int)
    case cancelled(Int)
    case finished(Int)
    case returned
}

/// Records events and lets the test await them one by one, without sleeping.
final class EventLog: Sendable {
    let stream: AsyncStream<RunEvent>
    private let continuation: AsyncStream<RunEvent>.Continuation
    private let runs = Mutex(0)

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: RunEvent.self)
    }

    func record(_ event: RunEvent) { continuation.yield(event) }

    func nextRun() -> Int {
        runs.withLock {
            $0 += 1; return $0
        }
    }

}

extension AsyncStream.Iterator {
    /// The next `count` elements (fewer if the stream finishes).
    mutating func next(_ count: Int) async -> [Element] {
        var elements: [Element] = []
        while elements.count < count, let element = await next() { elements.append(element) }
        return elements
    }
}

/// A one-shot gate that a task waits at, cancelled or not, until the test opens it.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func wait() async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiter = continuation
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isOpen = true
            return state.waiter.take()
        }
        waiter?.resume()
    }
}

/// Suspends until the current task is cancelled.
func untilCancelled() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    await withTaskCancellationHandler {
        for await _ in stream {}
    } onCancel: {
        continuation.finish()
    }
}

@Suite struct RepeatOnLifecycleTests {
    /// A block that records its start and its cancellation, and waits to be cancelled.
    static func block(_ log: EventLog) -> @Sendable () async -> Void {
        {
            let run = log.nextRun()
            log.record(.started(run))
            await untilCancelled()
            log.record(.cancelled(run))
        }
    }

    @Test func startsCancelsAndRestartsWithTheStateThenReturnsAtDestroyed() async {
        let lifecycle = Lifecycle(ledger: Ledger(clock: ManualClock()))
        lifecycle.move(to: .created)
        let log = EventLog()
        var events = log.stream.makeAsyncIterator()
        let caller = Task {
            await lifecycle.repeatOnLifecycle(.started, Self.block(log))
            log.record(.returned)
        }
        lifecycle.move(to: .started)
        #expect(await events.next(1) == [.started(1)])
        lifecycle.move(to: .resumed)  // still above: nothing
        lifecycle.move(to: .created)
        #expect(await events.next(1) == [.cancelled(1)])
        lifecycle.move(to: .resumed)
        #expect(await events.next(1) == [.started(2)])
        lifecycle.move(to: .destroyed)
        #expect(await events.next(2) == [.cancelled(2), .returned])
        await caller.value
    }

    @Test func actsOnTheStateAlreadyReached() async {
        let lifecycle = Lifecycle(ledger: Ledger(clock: ManualClock()))
        lifecycle.move(to: .resumed)
        let log = EventLog()
        var events = log.stream.makeAsyncIterator()
        let caller = Task {
            await lifecycle.repeatOnLifecycle(.started, Self.block(log))
            log.record(.returned)
        }
        #expect(await events.next(1) == [.started(1)])
        lifecycle.move(to: .destroyed)
        #expect(await events.next(2) == [.cancelled(1), .returned])
        await caller.value
    }

    @Test func returnsAtOnceWhenAlreadyDestroyed() async {
        let lifecycle = Lifecycle(ledger: Ledger(clock: ManualClock()))
        lifecycle.move(to: .destroyed)
        let log = EventLog()
        var events = log.stream.makeAsyncIterator()
        await lifecycle.repeatOnLifecycle(.started, Self.block(log))
        log.record(.returned)
        #expect(await events.next(1) == [.returned])
    }

    @Test func restartsOnlyAfterThePreviousRunHasFinished() async {
        let lifecycle = Lifecycle(ledger: Ledger(clock: ManualClock()))
        lifecycle.move(to: .started)
        let log = EventLog()
        var events = log.stream.makeAsyncIterator()
        let gate = Gate()
        let caller = Task {
            await lifecycle.repeatOnLifecycle(.started) {
                let run = log.nextRun()
                log.record(.started(run))
                await untilCancelled()
                log.record(.cancelled(run))
                // The first run lingers after its cancellation until the test opens the gate.
                if run == 1 { await gate.wait() }
                log.record(.finished(run))
            }
            log.record(.returned)
        }
        #expect(await events.next(1) == [.started(1)])
        lifecycle.move(to: .created)
        #expect(await events.next(1) == [.cancelled(1)])
        lifecycle.move(to: .started)  // back up while run 1 is still finishing
        gate.open()
        #expect(await events.next(2) == [.finished(1), .started(2)])
        lifecycle.move(to: .destroyed)
        #expect(await events.next(3) == [.cancelled(2), .finished(2), .returned])
        await caller.value
    }

    @Test func cancellingTheCallerCancelsTheBlockAndReturns() async {
        let lifecycle = Lifecycle(ledger: Ledger(clock: ManualClock()))
        lifecycle.move(to: .resumed)
        let log = EventLog()
        var events = log.stream.makeAsyncIterator()
        let caller = Task {
            await lifecycle.repeatOnLifecycle(.started, Self.block(log))
            log.record(.returned)
        }
        #expect(await events.next(1) == [.started(1)])
        caller.cancel()
        #expect(await events.next(2) == [.cancelled(1), .returned])
        await caller.value
        #expect(lifecycle.state == .resumed)
    }
}
