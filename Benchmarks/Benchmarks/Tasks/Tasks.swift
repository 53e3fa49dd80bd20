import Benchmark
import OpenCombine
import Support
import Synchronization
import Tether

// Tasks bound to values and owners: how fast a cancelled loop exits, and what a task per value
// costs.

let benchmarks: @Sendable () -> Void = {
    taskNameBenchmarks()
    forEachBenchmarks()

    // MARK: Task.cancel() → the task's `for await` loop exits

    // One sample = one task: started and parked in `for await` over a stream that never ends
    // (not measured), then cancelled; measured from `cancel()` until the loop has exited and said
    // so on a stream the benchmark waits on.
    Benchmark(
        "cancel-to-loop-exit/1 task/Task.cancel",
        configuration: budget(seconds: 2, iterations: 5_000)
    ) { benchmark async in
        let (values, feed) = AsyncStream.makeStream(of: Int.self)
        let (events, signal) = AsyncStream.makeStream(of: LoopEvent.self)
        let task = Task {
            for await _ in values { signal.yield(.entered) }
            signal.yield(.exited)
        }
        var heard = events.makeAsyncIterator()
        feed.yield(0)
        _ = await heard.next()  // .entered: the loop is running and about to wait again
        await Task.yield()
        benchmark.startMeasurement()
        task.cancel()
        _ = await heard.next()  // .exited
        benchmark.stopMeasurement()
        feed.finish()
    }

    // MARK: Tether: the owner's bag ends → its stored task's `for await` loop exits

    // As the raw one, but the task is stored in a tracked owner's bag (`Task.store(boundTo: bag)`) and
    // measured from `bag.dispose()`. One ledger per benchmark, on or off, shared by its samples as
    // an app's ledger is: a ledger made per sample would time its first use (its event log's and
    // verdict queue's first buffers, its first verdict timer) in every sample.
    for enabled in [true, false] {
        let ledger = Ledger(isEnabled: enabled)
        Benchmark(
            "cancel-to-loop-exit/1 task/Tether Task.store(in:) ledger \(enabled ? "on" : "off")",
            configuration: budget(seconds: 2, iterations: 5_000)
        ) { benchmark async in
            await Ledger.$current.withValue(ledger) {
                let (values, feed) = AsyncStream.makeStream(of: Int.self)
                let (events, signal) = AsyncStream.makeStream(of: LoopEvent.self)
                let owner = TaskOwner()
                Task {
                    for await _ in values { signal.yield(.entered) }
                    signal.yield(.exited)
                }.store(boundTo: owner.bag)
                var heard = events.makeAsyncIterator()
                feed.yield(0)
                _ = await heard.next()  // .entered
                await Task.yield()
                benchmark.startMeasurement()
                owner.bag.dispose()
                _ = await heard.next()  // .exited
                benchmark.stopMeasurement()
                feed.finish()
                blackHole(owner)
            }
            blackHole(ledger.counters)
        }
    }

    // MARK: A Task per value (asyncSink's alternative)

    // Values sent through a subject whose sink starts a Task for each; measured until every task
    // has run.
    Benchmark("per-value/1000 values/Task per value", configuration: budget(scaling: .kilo)) {
        benchmark async in
        await measureBodies(benchmark) { subject, ran in
            subject.sink { value in
                Task {
                    blackHole(value)
                    ran.tick()
                }
            }
        }
    }

    // MARK: Tether: asyncSink, per value

    // As the Task per value: 1000 sends through `asyncSink` (overlap `.concurrent`: a task per
    // value), measured until every body has run. The sink is made in the ledger's scope, which it
    // records to, and the values are sent outside it, as the raw side's are: a task made inside a
    // `withValue` scope copies its task-local bindings (an allocation per task), which an app's
    // sender does not pay and the raw side would not either. One ledger per benchmark, shared by
    // its samples, as for the loop exits above.
    for enabled in [true, false] {
        let ledger = Ledger(isEnabled: enabled)
        Benchmark(
            "per-value/1000 values/Tether asyncSink ledger \(enabled ? "on" : "off")",
            configuration: budget(scaling: .kilo)
        ) { benchmark async in
            await measureBodies(benchmark) { subject, ran in
                Ledger.$current.withValue(ledger) {
                    subject.asyncSink { value in
                        blackHole(value)
                        ran.tick()
                    }
                }
            }
            blackHole(ledger.counters)
        }
    }
}

/// One sample of a body-per-value pair: the benchmark's values sent through a subject that
/// `subscribe` gives a sink running a body per value (each body ticks `ran`), measured from the
/// first send until every body has run. Both sides of the pair measure through this, alike.
///
/// The values are sent from the main thread, as an app sends them: the benchmark runs on the
/// cooperative pool, and sending from there would keep one of its threads (half the pool on a
/// 2-core machine) from the bodies for the whole sample.
func measureBodies(
    _ benchmark: Benchmark,
    subscribe: @escaping @Sendable (PassthroughSubject<Int, Never>, Countdown) -> AnyCancellable
) async {
    let count = benchmark.scaledIterations.count
    let (done, finished) = AsyncStream.makeStream(of: Void.self)
    let sender = await Sender(ran: Countdown(count) { finished.yield() }, subscribe: subscribe)
    var waiter = done.makeAsyncIterator()
    benchmark.startMeasurement()
    await sender.send(count)
    _ = await waiter.next()
    benchmark.stopMeasurement()
    await sender.cancel()
}

/// A subject and the sink `measureBodies` sends through, on the main actor.
@MainActor
final class Sender {
    private let subject = PassthroughSubject<Int, Never>()
    private let cancellable: AnyCancellable

    init(ran: Countdown, subscribe: (PassthroughSubject<Int, Never>, Countdown) -> AnyCancellable) {
        cancellable = subscribe(subject, ran)
    }

    func send(_ count: Int) {
        for value in 0..<count { subject.send(value) }
    }

    func cancel() { cancellable.cancel() }
}

/// An owner whose tracked bag holds a task.
final class TaskOwner: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

enum LoopEvent: Sendable { case entered, exited }

/// Calls `done` when it has ticked `count` times. Thread-safe (one atomic).
final class Countdown: Sendable {
    private let remaining: Atomic<Int>
    private let done: @Sendable () -> Void

    init(_ count: Int, done: @escaping @Sendable () -> Void) {
        remaining = Atomic(count)
        self.done = done
    }

    func tick() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done() }
    }
}
