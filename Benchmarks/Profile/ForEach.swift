import Dispatch
import Tether

// `foreach raw|ledger-on [count]`: the Tasks suite's per-element pair (Benchmarks/Tasks/ForEach.swift),
// for callgrind: `count` elements through a bare `for await` in a stored task (`raw`), or through
// `forEach(boundTo:)` of a tracked owner in a ledger that is on.

/// Yields `count` elements to the loop `mode` names, from the main thread, until its body has seen
/// them all.
func profileForEach(mode: String, count: Int) {
    let ledger = Ledger()
    let owner = ProfileTaskOwner(ledger: ledger)
    let (values, feed) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
    let done = Countdown(count)
    startLoop(mode == "raw", over: values, in: owner, done: done)
    for value in 0..<count { feed.yield(value) }
    done.wait()
    feed.finish()
    owner.bag.end()
    print(ledger.counters)
}

/// Outside the top-level code, so that neither loop is isolated to the main actor, which waits.
func startLoop(_ raw: Bool, over values: AsyncStream<Int>, in owner: ProfileTaskOwner, done: Countdown) {
    if raw {
        Task {
            for await _ in values { done.tick() }
        }.store(boundTo: owner.bag)
    } else {
        values.forEach(boundTo: owner.bag) { _ in done.tick() }
    }
}
