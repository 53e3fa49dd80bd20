import Tether

extension Publisher where Failure == Never, Output: Sendable {
    /// The Japanese article's `asyncSink`, bug included: it remembers only the *last* task it started, so
    /// cancelling it cancels that one task and leaves every earlier body running.
    ///
    /// The lab's leaky twin of Tether's `asyncSink(priority:overlap:receiveValue:)`. Each body
    /// runs in `Task.attributed(to: lifetime)` — attributed to the lifetime's owner, not bound to it —
    /// so the bodies that survive the cancel stay visible in the ledger, named by the caller's
    /// line. The overlap policy is honoured the naive way: `.latest` cancels the last task,
    /// `.dropWhileBusy` drops while it runs, `.serial` makes each task wait for the previous one.
    ///
    /// Main-actor only: values arrive on the main actor, bodies run on it.
    @MainActor
    func naiveAsyncSink(
        attributedTo lifetime: Lifetime, overlap: AsyncSinkOverlap, fileID: StaticString = #fileID,
        line: UInt = #line, receiveValue: @escaping @MainActor (Output) async -> Void
    ) -> AnyCancellable {
        let last = LastTask()
        let subscription = sink { value in
            let previous = last.task
            switch overlap {
            case .concurrent:
                break
            case .latest:
                previous?.cancel()
            case .dropWhileBusy:
                if last.isRunning { return }
            case .serial:
                break
            }
            last.generation += 1
            let generation = last.generation
            last.isRunning = true
            // tether-lint: ignore task-in-sink — the leaky twin of asyncSink
            let task = Task.attributed(to: lifetime, fileID: fileID, line: line) { @MainActor in
                if overlap == .serial { await previous?.value }
                if !Task.isCancelled { await receiveValue(value) }
                if last.generation == generation { last.isRunning = false }
            }
            // The bug: the previous task is forgotten here, still running.
            last.task = task
        }
        return AnyCancellable {
            subscription.cancel()
            last.task?.cancel()
        }
    }
}

/// The one task the naive sink remembers.
@MainActor
private final class LastTask {
    var task: Task<Void, Never>?
    /// Whether the remembered task is still running.
    var isRunning = false
    /// Counts the tasks started, so a task knows whether it is still the remembered one.
    var generation = 0
}
