import Synchronization
import TestSupport
import Testing

@testable import Tether

/// `onGrowth`'s registration on its own: queued calls that never overlap, re-entry, cancels.
@Suite struct GrowthWatcherTests {
    @Test func aReportToldFromInsideTheHandlerComesAfterTheCallReturns() {
        let heard = Recorder<String>()
        let slot = LockedBox<GrowthWatcher?>(nil)
        let watcher = GrowthWatcher { report in
            heard.record("begin \(report.live)")
            if report.live == 1 { slot.withLock { $0 }?.tell([sessionReport(2)]) }
            heard.record("end \(report.live)")
        }
        slot.withLock { $0 = watcher }
        watcher.tell([sessionReport(1)])
        #expect(heard.events == ["begin 1", "end 1", "begin 2", "end 2"])
    }

    @Test func aCancelFromInsideTheHandlerDropsWhatIsQueued() {
        let heard = Recorder<Int>()
        let slot = LockedBox<GrowthWatcher?>(nil)
        let watcher = GrowthWatcher { report in
            heard.record(report.live)
            slot.withLock { $0 }?.cancel()
        }
        slot.withLock { $0 = watcher }
        watcher.tell([sessionReport(1), sessionReport(2)])
        watcher.tell([sessionReport(3)])
        #expect(heard.events == [1])
    }

    /// A task the handler starts inherits the handler's task-local values, yet it runs on another
    /// thread: its cancel waits for the call in progress. The call is told on a thread of its own
    /// and the task runs on another, whatever holds the pool; it returns once the cancel waits,
    /// or has returned.
    @Test func aCancelFromATaskTheHandlerStartedWaitsForTheCall() async {
        let order = Recorder<String>()
        let returned = Flag()
        let slot = Slot<GrowthWatcher>()
        let watcher = GrowthWatcher { _ in
            Task(executorPreference: ThreadTaskExecutor()) {
                slot.value?.cancel()
                order.record("cancel returned")
                returned.raise()
            }
            waitUntil("the cancel to wait or return") {
                slot.value?.hasWaitingCancel == true || returned.isRaised
            }
            order.record("call returns")
        }
        slot.put(watcher)
        await onThreads([{ watcher.tell([sessionReport(1)]) }])
        await waitUntil("the cancel to return") { returned.isRaised }
        #expect(order.events == ["call returns", "cancel returned"])
    }

    @Test func callsFromManyThreadsNeverOverlapAndNoneStartsAfterCancelReturns() async {
        let flags = Flags()
        let watcher = GrowthWatcher { _ in
            if flags.inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
                flags.overlaps.add(1, ordering: .relaxed)
            }
            if flags.cancelReturned.load(ordering: .acquiring) { flags.late.add(1, ordering: .relaxed) }
            flags.inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        let reports = (1...20).map(sessionReport)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for report in reports { watcher.tell([report]) } }
            }
            group.addTask {
                watcher.cancel()
                flags.cancelReturned.store(true, ordering: .releasing)
            }
        }
        let (overlapping, afterCancel) = (
            flags.overlaps.load(ordering: .relaxed), flags.late.load(ordering: .relaxed)
        )
        #expect(overlapping == 0)
        #expect(afterCancel == 0)
    }
}

/// A report of `live` subscriptions of one session.
private func sessionReport(_ live: Int) -> GrowthReport {
    GrowthReport(
        owner: OwnerID(typeName: "Session", serial: 1), ownerSite: CallSite(), kind: .subscription,
        site: CallSite(), counts: [live], live: live)
}

/// What the racing tests observe, from any thread.
private final class Flags: Sendable {
    let cancelReturned = Atomic<Bool>(false)
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let late = Atomic<Int>(0)
}
