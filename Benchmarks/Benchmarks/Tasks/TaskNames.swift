import Benchmark
import Support
import Tether

// Bind and end with a task, and what the task's name costs in it. Tether's side: a tracked owner
// starts a task in its bag and goes at once, its bag ending (the task cancelled, most often before
// it began); the task is awaited. Beside it, the name alone: a `Task {}` started and awaited,
// unnamed and named the way Tether names a task (an owner's id and a call site, one string made
// per task). Named ÷ unnamed is the name's share; Tether's side carries it.
func taskNameBenchmarks() {
    Benchmark("bind-and-end/1 task/Task unnamed", configuration: budget(scaling: .kilo)) { benchmark async in
        await measureTasks(benchmark) { _ in Task {} }
    }

    Benchmark("bind-and-end/1 task/Task named as Tether names it", configuration: budget(scaling: .kilo)) {
        benchmark async in
        let site = "TaskNames.swift:22"
        await measureTasks(benchmark) { serial in Task(name: "NamedTaskOwner#\(serial) \(site)") {} }
    }

    // The ledger given to the owner rather than made current: a task started in a `withValue`
    // scope copies its task-local bindings, which the raw sides would not pay.
    let ledger = Ledger()
    Benchmark("bind-and-end/1 task/Tether lifetime.task ledger on", configuration: budget(scaling: .kilo)) {
        benchmark async in
        await measureTasks(benchmark) { _ in Task(boundTo: NamedTaskOwner(ledger: ledger).bag) {} }
        blackHole(ledger.counters)
    }
}

/// Starts a task per scaled iteration with `start`, then awaits them all; all of it measured.
func measureTasks(_ benchmark: Benchmark, start: (Int) -> Task<Void, Never>) async {
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(benchmark.scaledIterations.count)
    benchmark.startMeasurement()
    for serial in benchmark.scaledIterations { tasks.append(start(serial)) }
    for task in tasks { await task.value }
    benchmark.stopMeasurement()
}

/// An owner tracked in the ledger it is given, whose bag holds its task.
final class NamedTaskOwner: Sendable {
    let bag: DisposeBag

    init(ledger: Ledger) {
        bag = DisposeBag(ledger: ledger)
        bag.track(self)
    }
}
