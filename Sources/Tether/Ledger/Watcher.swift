import DequeModule
import Synchronization

/// One ``Ledger/onLeak(_:)`` registration.
typealias LeakWatcher = Watcher<LeakReport>
/// One ``Ledger/onGrowth(_:)`` registration.
typealias GrowthWatcher = Watcher<GrowthReport>

/// A handler registration that calls its handler with each report, one call at a time.
///
/// A report told while a call is in progress — from another thread, or from the handler itself
/// (a lifetime it ends can make a verdict due at once; a checkpoint it makes can find growth) —
/// is queued, and the thread in the call delivers it next: calls never overlap, and no lock a
/// nested report needs is held across a call. `inCall` is held for as long as a thread delivers,
/// so that a cancel from any other thread (a task the handler started among them) waits for the
/// call in progress; a cancel from the delivering thread — the handler cancelling its own watch —
/// only marks it. The delivering thread is known by its identity, not by a task-local value,
/// which a task the handler starts would inherit.
final class Watcher<Report: Sendable>: Sendable {
    private struct State {
        var cancelled = false
        var queue = Deque<Report>()
        /// The thread delivering reports, if any.
        var deliverer: ThreadIdentity?
        /// Cancels from other threads waiting for the call in progress.
        var waitingCancels = 0

        /// The next report to deliver; nil, and no deliverer any more, when none is left or the
        /// watch is cancelled.
        mutating func next() -> Report? {
            if !cancelled, let report = queue.popFirst() { return report }
            queue.removeAll()
            deliverer = nil
            return nil
        }
    }

    private let handler: @Sendable (Report) -> Void
    private let state = Mutex(State())
    /// Held by the delivering thread: a gate a cancel from another thread passes once the call in
    /// progress has returned. It guards no state.
    private let inCall = Mutex(())

    init(_ handler: @escaping @Sendable (Report) -> Void) { self.handler = handler }

    func tell(_ report: Report) { tell(CollectionOfOne(report)) }

    func tell(_ reports: some Sequence<Report>) {
        let thread = ThreadIdentity.current
        let delivers = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.queue.append(contentsOf: reports)
            guard state.deliverer == nil, !state.queue.isEmpty else { return false }
            state.deliverer = thread
            return true
        }
        guard delivers else { return }
        inCall.withLock { _ in
            while let next = state.withLock({ $0.next() }) { handler(next) }
        }
    }

    /// Stops the calls: none starts after this returns, and, called from another thread than the
    /// one in a call, it returns after that call.
    func cancel() {
        let thread = ThreadIdentity.current
        let waits = state.withLock { state -> Bool in
            state.cancelled = true
            state.queue.removeAll()
            guard state.deliverer != nil && state.deliverer != thread else { return false }
            state.waitingCancels += 1
            return true
        }
        guard waits else { return }
        inCall.withLock { _ in }
        state.withLock { $0.waitingCancels -= 1 }
    }

    /// Whether a cancel waits for the call in progress.
    var hasWaitingCancel: Bool { state.withLock { $0.waitingCancels > 0 } }
}
