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

extension GrowthWatcherTests {
    /// The tests that measure the wall clock: `make test` runs them after the logic tests, apart.
    @Suite(.tags(.timing), .serialized) struct Timing {
        /// A task the handler starts runs on another thread but inherits the handler's task-local
        /// values: its cancel must still wait for the call, or the call outlives the cancel. A window
        /// of the wall clock: the call waits up to 2 s for the task to be cancelling, then 20 ms for
        /// a cancel that does not wait to return.
        @Test func aCancelFromATaskTheHandlerStartedWaitsForTheCall() async {
            let flags = Flags()
            let slot = LockedBox<GrowthWatcher?>(nil)
            let watcher = GrowthWatcher { _ in
                Task {
                    flags.cancelling.store(true, ordering: .releasing)
                    slot.withLock { $0 }?.cancel()
                    flags.cancelReturned.store(true, ordering: .releasing)
                }
                // Until the task is cancelling, then a little longer: time for a cancel that does not
                // wait to return.
                let deadline = ContinuousClock.now + .seconds(2)
                while !flags.cancelling.load(ordering: .acquiring), ContinuousClock.now < deadline {}
                let until = ContinuousClock.now + .milliseconds(20)
                while ContinuousClock.now < until, !flags.cancelReturned.load(ordering: .acquiring) {}
                flags.outlived.store(flags.cancelReturned.load(ordering: .acquiring), ordering: .releasing)
            }
            slot.withLock { $0 = watcher }
            watcher.tell([sessionReport(1)])
            await waitUntil { flags.cancelReturned.load(ordering: .acquiring) }
            let callOutlivedCancel = flags.outlived.load(ordering: .acquiring)
            #expect(!callOutlivedCancel, "the cancel returned while the call was running")
        }
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
    let cancelling = Atomic<Bool>(false)
    let cancelReturned = Atomic<Bool>(false)
    let outlived = Atomic<Bool>(false)
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let late = Atomic<Int>(0)
}
