import Observation
import Testing
import Tether
import TetherTesting

/// A model on Swift's Observation, changed by the tests on the main actor.
@MainActor @Observable
private final class Dial {
    var value = 0
}

/// The loop everyone writes first: `guard let self` before `for await` makes the weak capture
/// strong for the whole loop, and the loop lasts as long as the model — which its loop keeps.
@MainActor
private final class LeakyDialModel {
    let bag = DisposeBag()
    let dial: Dial
    private(set) var heard: [Int] = []
    private(set) var loop: Task<Void, Never>?

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    init(_ dial: Dial) {
        self.dial = dial
        bag.track(self)
        loop = Task.attributed(to: bag) { [weak self] in
            guard let self else { return }
            for await value in Observations({ self.dial.value }) { self.heard.append(value) }
        }
    }
}

/// A session that lives longer than the screens that store their loops in its bag.
private final class DialSession: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// The test tools see a loop over `Observations`: `.noLeaks` an owner kept alive by its own loop,
/// `expectNoGrowth` a loop stored in a long-lived object's bag once per repetition.
@MainActor @Suite struct ObservationsToolTests {
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func noLeaksReportsAnOwnerKeptAliveByItsOwnObservationsLoop() async throws {
        let kept = Slot<LeakyDialModel>()
        let found = try await issues { @MainActor in
            let dial = Dial()
            let model = LeakyDialModel(dial)
            dial.value = 1
            kept.put(model)  // to stop its loop after the check
        }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("LeakyDialModel#1 left alive") == true)
        #expect(found.first?.contains("╰─ task at ObservationsToolTests.swift:") == true)
        // The loop holds the model: only a cancel ends it (not awaited: nothing here depends on
        // when it ends).
        kept.value?.loop?.cancel()
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func expectNoGrowthReportsALoopStoredInALongLivedBagEachRepetition() async {
        let ledger = Ledger(clock: ManualClock())
        let session = Ledger.$current.withValue(ledger) { DialSession() }
        let dial = Dial()
        let line = #line + 4
        await withKnownIssue {
            await expectNoGrowth(ledger: ledger) { @MainActor in
                // A screen that binds its loop to the session instead of to itself.
                Observations { dial.value }.forEach(boundTo: session.bag) { _ in }
            }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasPrefix("DialSession#1 grows: 3 tasks at ObservationsToolTests.swift:\(line),")
            }
        }
        #expect(ledger.counters.tasks == 3)
        session.bag.end()
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func expectNoGrowthPassesALoopBoundToTheScreensOwnLifetime() async {
        let ledger = Ledger(clock: ManualClock())
        let dial = Dial()
        await expectNoGrowth(ledger: ledger) { @MainActor in
            let screen = DialSession()
            Observations { dial.value }.forEach(boundTo: screen.bag) { _ in }
        }
        #expect(ledger.snapshotRearmingOnChange().growth.isEmpty)
    }
}
