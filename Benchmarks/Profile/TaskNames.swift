import Dispatch
import Tether

// `task-names unnamed|named|tether [count]`: the Tasks suite's bind-and-end-with-a-task cases
// (Benchmarks/Tasks/TaskNames.swift), `count` tasks started and awaited, for callgrind.
// `unnamed` and `named` are a bare `Task {}` without and with a name made as Tether makes one
// (`named-once`: with a name made once, what the runtime alone costs);
// `tether` a tracked owner's `Task(boundTo: bag) {}` in a ledger that is on, the owner gone at once.

/// Runs the case off the main thread and waits for it (the main thread is not the pool's).
func profileTaskNames(mode: String, count: Int) {
    let done = DispatchSemaphore(value: 0)
    let ledger = Ledger()
    Task.detached {
        var tasks: [Task<Void, Never>] = []
        tasks.reserveCapacity(count)
        let site = "TaskNames.swift:22"
        for serial in 0..<count {
            switch mode {
            case "unnamed": tasks.append(Task {})
            case "named": tasks.append(Task(name: "ProfileTaskOwner#\(serial) \(site)") {})
            case "named-once": tasks.append(Task(name: site) {})
            default: tasks.append(Task(boundTo: ProfileTaskOwner(ledger: ledger).bag) {})
            }
        }
        for task in tasks { await task.value }
        done.signal()
    }
    done.wait()
    print(ledger.counters)
}

/// An owner tracked in the ledger it is given, whose bag holds its task.
final class ProfileTaskOwner: Sendable {
    let bag: DisposeBag

    init(ledger: Ledger) {
        bag = DisposeBag(ledger: ledger)
        bag.track(self)
    }
}
