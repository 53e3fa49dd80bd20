import Foundation
import Testing
import Tether
import TetherTesting

// The README's example, run (DocSampleTests type-checks it as pasted): if the API changes, this
// breaks before the README lies.

extension Notification.Name {
    fileprivate static let orientationDidChange = Notification.Name("ReadmeExample.orientationDidChange")
}

@MainActor private final class OrientationViewModel {
    let bag = DisposeBag()
    private(set) var isPortrait = false
    private(set) var rotations = 0

    init(isPortrait: some Publisher<Bool, Never>, center: NotificationCenter) {
        bag.track(self)  // an owner in the ledger: OrientationViewModel#1
        isPortrait.sink(boundTo: bag) { [weak self] in self?.isPortrait = $0 }
        let changes = center.tetherNotifications(named: .orientationDidChange)
        Task { [weak self] in
            for await _ in changes { self?.rotations += 1 }
        }.store(boundTo: bag)  // cancelled when the model goes
    }
}

@Suite struct ReadmeExampleTests {
    @Test @MainActor func exampleBindsAndLeavesNothingBehind() async {
        let tracker = LeakTracker()
        let center = NotificationCenter()
        let portrait = CurrentValueSubject<Bool, Never>(true)
        do {
            let model = tracker.run { OrientationViewModel(isPortrait: portrait, center: center) }
            #expect(model.isPortrait)
            portrait.send(false)
            #expect(!model.isPortrait)
            #expect(tracker.ledger.counters.owners == 1)
            #expect(tracker.ledger.counters.tasks == 1)
        }
        #expect(tracker.ledger.counters.tasks == 0)
        expectNoLeaks(tracker)
    }

    @Test(.noLeaks) @MainActor func dismissingLeavesNothingBehind() {
        _ = OrientationViewModel(isPortrait: Just(true), center: NotificationCenter())
    }
}
