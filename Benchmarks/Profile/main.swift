// Runs one benchmarked operation N times, outside package-benchmark, for valgrind's callgrind
// (which cannot run under the malloc interposer). See README.md, "Profiling a miss".
//
//     tether-bench-profile bind-and-end raw|ledger-on|ledger-off|served|reported [count]
//         (served: its ledger served to no client; reported: through swift-metrics; ledger on)
//     tether-bench-profile livedata|livedata-weak|observed|fuse|bound-sink|asyncsink|task-exit ledger-on|ledger-off [count]
//     tether-bench-profile livedata|livedata-weak|observed|fuse|bound-sink|asyncsink raw [count]
//         (the alternative: a closure array, weak boxes, a CurrentValueSubject, raw sinks, a Task per value)
//     tether-bench-profile fuse|bound-sink raw|ledger-on|ledger-off count subscribers   (100 by default)
//     tether-bench-profile frame paint|diff [count]
//     tether-bench-profile interleaved ledger-on|ledger-off [rounds]   (wall clock, see interleaved(_:…))
//     tether-bench-profile interleaved-observers ledger-on|ledger-off [rounds]   (its LiveData and @Observed pairs)
//     tether-bench-profile interleaved-lifetimes ledger-on|ledger-off [rounds]   (bind and end; served, reported)
//     tether-bench-profile frame redraw|tether|prepainted-all|line|none [count]   (e.g. tether-none)
//     tether-bench-profile task-names unnamed|named|tether [count]   (a task's name, see TaskNames.swift)
//     tether-bench-profile foreach raw|ledger-on [count]   (a loop per element, see ForEach.swift)
//     tether-bench-profile threads ledger-on|ledger-off [count] [threads]   (bind and end on 8, see Contention.swift)
//     tether-bench-profile machine   (what an atomic add and a clock read cost on this CPU)
//
// Instructions per operation: the difference of two runs (count N and 2N) divided by N.

import Dispatch
import OpenCombine
import Synchronization
import TerminalUI
import Tether

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
if arguments.count == 2 && arguments[1] == "machine" {
    describeMachine()
    exit(0)
}
guard arguments.count >= 3 else {
    print(
        "usage: tether-bench-profile bind-and-end|livedata|livedata-weak|observed|fuse|bound-sink|asyncsink|task-exit|frame MODE [count], or tether-bench-profile machine"
    )
    exit(2)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
let subject = PassthroughSubject<Int, Never>()
let ledger = Ledger(isEnabled: arguments[2] == "ledger-on")

switch arguments[1] {
case "bind-and-end": bindAndEnd()
case "livedata", "livedata-weak", "observed":
    // See Observers.swift.
    profileObservers(arguments[1], mode: arguments[2], count: count, ledger: ledger)
case "fuse", "bound-sink":
    // One send to 100 subscribers (or as many as the fifth argument says) through a fuse, or
    // sink(boundTo:).
    let subscribers = arguments.count > 4 ? Int(arguments[4]) ?? 100 : 100
    Ledger.$current.withValue(ledger) {
        let sum = Tally()
        let holder = Holder()
        let owner = Owner()
        var cancellables = Set<AnyCancellable>()
        if arguments[2] == "raw" {
            rawSinks(subscribers, to: subject, sum: sum, into: &cancellables)
        } else if arguments[1] == "fuse" {
            let fused = subject.fuse(heldBy: holder, on: \.cancellables)
            fusedSinks(subscribers, to: fused, sum: sum, into: &cancellables)
        } else {
            for _ in 0..<subscribers { subject.sink(boundTo: owner.bag) { sum.add($0) } }
        }
        for value in 0..<count { subject.send(value) }
        print(sum.value, cancellables.count, holder.cancellables.count)
    }
case "interleaved":
    // Raw and Tether's sides in turns within one process (see `interleaved`).
    Ledger.$current.withValue(ledger) {
        interleavedSends(subscribers: 1, rounds: count)
        interleavedSends(subscribers: 100, rounds: count)
    }
    // Outside the ledger's scope: a task made inside a `withValue` scope copies its task-local
    // bindings, which an app's sender does not pay. The sink records to `ledger` all the same.
    interleavedAsyncSink(rounds: count, ledger: ledger)
    interleavedObservers(rounds: count, ledger: ledger)
case "interleaved-observers":
    // The LiveData and @Observed pairs alone.
    interleavedObservers(rounds: count, ledger: ledger)
case "interleaved-lifetimes":
    // Bind and end: raw ÷ Tether, and served ÷ not served (see Lifetimes.swift).
    interleavedLifetimes(rounds: count, ledger: ledger)
    // Ledger on ÷ off on 8 and 16 threads: fewer rounds, each is thousands of owners.
    interleavedContention(rounds: max(10, count / 10))
case "threads":
    profileContention(
        mode: arguments[2], count: count, threads: arguments.count > 4 ? Int(arguments[4]) ?? 8 : 8)
case "asyncsink":
    // `count` values through asyncSink, until every body has run.
    // `raw`: the alternative, a sink starting a `Task {}` per value.
    let done = Countdown(count)
    let cancellable = Ledger.$current.withValue(ledger) {
        arguments[2] == "raw" ? rawTaskPerValue(subject, done) : tetherAsyncSink(subject, done)
    }
    for value in 0..<count { subject.send(value) }
    done.wait()
    cancellable.cancel()
case "task-exit":
    // `count` owners, each with a task parked in `for await`, ended one at a time.
    let exited = Tally()
    for _ in 0..<count {
        let (values, _) = AsyncStream.makeStream(of: Int.self)
        // The owner made in the ledger's scope, as the benchmark's is: its bag records there.
        let owner = Ledger.$current.withValue(ledger) {
            let owner = Owner()
            // Detached: a plain Task here would inherit the main actor, which this loop blocks.
            Task.detached {
                for await _ in values {}
                exited.add(1)
            }.store(boundTo: owner.bag)
            return owner
        }
        let before = exited.value
        owner.bag.dispose()
        while exited.value == before { usleep(20) }  // sleeps, so valgrind runs the task
    }
case "task-names":
    profileTaskNames(mode: arguments[2], count: count)
case "foreach":
    profileForEach(mode: arguments[2], count: count)
case "frame":
    // The Frames suite's frames (Frames.swift says which mode replays what).
    MainActor.assumeIsolated { profileFrames(mode: arguments[2], count: count) }
default:
    print("unknown case \(arguments[1])")
    exit(2)
}

/// The alternative of `fuse` and `bound-sink`: `count` raw sinks. Outside the top-level code, so
/// that the closure is not main-actor isolated: Swift 6 would check its isolation at run time on
/// every value (OpenCombine is a Swift 5 module), which the benchmark's closures do not pay.
func rawSinks(
    _ count: Int, to subject: PassthroughSubject<Int, Never>, sum: Tally,
    into cancellables: inout Set<AnyCancellable>
) {
    for _ in 0..<count { subject.sink { sum.add($0) }.store(in: &cancellables) }
}

/// `count` sinks through a fuse, made outside the top-level code for the same reason.
func fusedSinks(
    _ count: Int, to fused: Publishers.Fuse<PassthroughSubject<Int, Never>>, sum: Tally,
    into cancellables: inout Set<AnyCancellable>
) {
    for _ in 0..<count { fused.sink { sum.add($0) }.store(in: &cancellables) }
}

/// The alternative of `asyncsink`: a sink starting a `Task {}` per value (nonisolated, as above).
func rawTaskPerValue(_ subject: PassthroughSubject<Int, Never>, _ done: Countdown) -> AnyCancellable {
    subject.sink { _ in Task { done.tick() } }
}

/// Tether's side, made outside the top-level code: a closure written there is isolated to the main
/// actor, and each body would hop to it, which neither the benchmark nor the raw side does.
func tetherAsyncSink(_ subject: PassthroughSubject<Int, Never>, _ done: Countdown) -> AnyCancellable {
    subject.asyncSink { _ in done.tick() }
}

/// Replays the bind-and-end benchmark.
@MainActor func bindAndEnd() {
    switch arguments[2] {
    case "raw":
        for _ in 0..<count { _ = RawOwner(subject) }
    case "ledger-on", "ledger-off":
        bindAndEnd(count, subject, in: ledger)
        print(ledger.counters)
    case "served", "reported":
        // The served and reported pairs' Tether side; their alternative is `ledger-on`.
        let watched = Ledger()
        let stop = watch(watched, arguments[2] == "served" ? .servedToNoClient : .reportedToPrometheus)
        bindAndEnd(count, subject, in: watched)
        stop()
        print(watched.counters)
    default:
        print("unknown mode \(arguments[2])")
        exit(2)
    }
}

final class Owner: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

final class Holder {
    var cancellables = Set<AnyCancellable>()
}

final class Tally: Sendable {
    private let total = Atomic<Int>(0)
    func add(_ amount: Int) { total.wrappingAdd(amount, ordering: .relaxed) }
    var value: Int { total.load(ordering: .relaxed) }
}

/// The wall-clock time `body` takes, in seconds, divided by the `operations` it does.
func secondsPerOperation(_ operations: Int, _ body: () -> Void) -> Double {
    let (seconds, attoseconds) = ContinuousClock().measure(body).components
    return (Double(seconds) + Double(attoseconds) * 1e-18) / Double(operations)
}

/// Wall-clock comparisons made in turns within one process: each round runs every variant once,
/// the order rotating from round to round. package-benchmark measures each benchmark in a process
/// of its own, and on this machine a whole process can land in a slow spell (the raw sink to 100
/// subscribers reads about 12 µs in some processes and 18–20 µs in others); in turns, a spell
/// falls on all variants alike, so each round's ratio compares like with like.
/// Prints each variant's median time per operation and the quartiles of the rounds' ratios to
/// the first variant. `make bench` pipes this through `ratios.py --in-turns`, which judges each
/// pair with a target by its median ratio: the targets live there alone.
func interleaved(
    _ title: String, rounds: Int, operations: Int, _ variants: [(name: String, run: () -> Void)]
) {
    var perOperation = [[Double]](repeating: [], count: variants.count)
    for round in 0..<rounds {
        for turn in variants.indices {
            let index = (round + turn) % variants.count
            perOperation[index].append(secondsPerOperation(operations, variants[index].run))
        }
    }
    func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
    }
    func show(_ value: Double) -> String { "\((value * 1000).rounded() / 1000)" }
    print("\(title), ledger \(ledger.isEnabled ? "on" : "off"); \(rounds) rounds of \(operations) each")
    for (index, variant) in variants.enumerated() {
        var line = "  \(variant.name): median \(show(quantile(perOperation[index], 0.5) * 1e6)) µs"
        if index > 0 {
            let ratios = zip(perOperation[index], perOperation[0]).map { $0 / $1 }
            let median = quantile(ratios, 0.5)
            line += "; ÷ \(variants[0].name) per round: median \(show(median))"
            line += " (quartiles \(show(quantile(ratios, 0.25)))–\(show(quantile(ratios, 0.75))))"
        }
        print(line)
    }
}

/// One value to `subscribers` subscribers: the raw sink, `sink(boundTo:)` and the fuse.
func interleavedSends(subscribers: Int, rounds: Int) {
    let sum = Tally()
    var cancellables = Set<AnyCancellable>()
    let raw = PassthroughSubject<Int, Never>()
    rawSinks(subscribers, to: raw, sum: sum, into: &cancellables)
    let bound = PassthroughSubject<Int, Never>()
    let owner = Owner()
    for _ in 0..<subscribers { bound.sink(boundTo: owner.bag) { sum.add($0) } }
    let fused = PassthroughSubject<Int, Never>()
    let holder = Holder()
    fusedSinks(subscribers, to: fused.fuse(heldBy: holder, on: \.cancellables), sum: sum, into: &cancellables)
    // 200 sends to 100 subscribers a turn, 20,000 to one: a few milliseconds either way.
    let sends = 20_000 / subscribers
    func sending(to subject: PassthroughSubject<Int, Never>) -> () -> Void {
        { for value in 0..<sends { subject.send(value) } }
    }
    interleaved(
        "One value to \(subscribers) subscriber\(subscribers == 1 ? "" : "s"), per send", rounds: rounds,
        operations: sends,
        [
            ("OpenCombine sink", sending(to: raw)), ("sink(boundTo:)", sending(to: bound)),
            ("fuse", sending(to: fused)),
        ])
    print("  (checksum \(sum.value), \(cancellables.count + holder.cancellables.count) cancellables)")
}

/// A value's body in a task: a `Task {}` per value, and `asyncSink`; each round sends 1,000 values
/// and waits until every body has run.
func interleavedAsyncSink(rounds: Int, ledger: Ledger) {
    let values = 1_000
    let done = Countdown(values)
    let raw = PassthroughSubject<Int, Never>()
    let tether = PassthroughSubject<Int, Never>()
    let cancellables = [
        rawTaskPerValue(raw, done), Ledger.$current.withValue(ledger) { tetherAsyncSink(tether, done) },
    ]
    func sending(to subject: PassthroughSubject<Int, Never>) -> () -> Void {
        {
            done.arm(values)
            for value in 0..<values { subject.send(value) }
            done.wait()
        }
    }
    interleaved(
        "asyncSink, per value", rounds: rounds, operations: values,
        [("Task per value", sending(to: raw)), ("asyncSink", sending(to: tether))])
    for cancellable in cancellables { cancellable.cancel() }
}

/// Lets the main thread sleep until `count` bodies have ticked: a semaphore, not a polling loop,
/// whose iterations (as many as the threads' timing makes) would blur the count of instructions.
final class Countdown: Sendable {
    private let remaining: Atomic<Int>
    private let finished = DispatchSemaphore(value: 0)

    init(_ count: Int) { remaining = Atomic(count) }

    /// Counts down from `count` again; call it only when the last count is done.
    func arm(_ count: Int) { remaining.store(count, ordering: .releasing) }

    func tick() {
        if remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { finished.signal() }
    }

    func wait() { finished.wait() }
}

final class RawOwner {
    var cancellables = Set<AnyCancellable>()
    var received = 0

    init(_ events: PassthroughSubject<Int, Never>) {
        events.sink { [unowned self] in received &+= $0 }.store(in: &cancellables)
    }
}

final class BagOwner {
    let bag = DisposeBag()
    var received = 0

    init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        events.sink { [unowned self] in received &+= $0 }.store(boundTo: bag)
    }
}
