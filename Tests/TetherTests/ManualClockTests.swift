import TestSupport
import Testing
import Tether

@Suite struct ManualClockTests {
    @Test func advanceRunsDueActionsInDeadlineOrder() {
        let clock = ManualClock()
        let recorder = Recorder<String>()
        clock.schedule(at: .milliseconds(30)) { recorder.record("30") }
        clock.schedule(at: .milliseconds(10)) { recorder.record("10") }
        clock.schedule(at: .milliseconds(50)) { recorder.record("50") }
        clock.advance(by: .milliseconds(30))
        #expect(recorder.events == ["10", "30"])
        #expect(clock.now == .milliseconds(30))
        clock.advance(by: .milliseconds(20))
        #expect(recorder.events == ["10", "30", "50"])
    }

    @Test func cancelledActionNeverRuns() {
        let clock = ManualClock()
        let recorder = Recorder<String>()
        let token = clock.schedule(at: .seconds(1)) { recorder.record("ran") }
        token.cancel()
        clock.advance(by: .seconds(2))
        #expect(recorder.events.isEmpty)
        #expect(clock.pendingCount == 0)
    }

    @Test func actionScheduledByAnActionRunsInTheSameAdvanceWhenDue() {
        let clock = ManualClock()
        let recorder = Recorder<String>()
        clock.schedule(at: .milliseconds(10)) {
            recorder.record("first")
            clock.schedule(at: .milliseconds(20)) { recorder.record("second") }
        }
        clock.advance(by: .milliseconds(25))
        #expect(recorder.events == ["first", "second"])
    }

    @Test func sleeperResumesWhenTimeReachesItsDeadline() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await waitUntil { clock.pendingCount > 0 }
        clock.advance(by: .seconds(4))
        #expect(clock.pendingCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.pendingCount == 0)
    }

    @Test func cancellingASleeperThrowsCancellation() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await waitUntil { clock.pendingCount > 0 }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingCount == 0)
    }
}
