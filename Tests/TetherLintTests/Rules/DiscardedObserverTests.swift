import Testing
import TetherLint

@Suite struct DiscardedObserverTests {
    @Test func findsDiscardedTokensOnAnyCenter() {
        expectFindings(
            .discardedObserver,
            in: """
                final class Player {
                    init(center: NotificationCenter) {
                        NotificationCenter.default.addObserver(forName: .didEnd, object: nil, queue: .main) { _ in  // ⚠️
                            self.stop()
                        }
                        _ = center.addObserver(forName: .didEnd, object: nil, queue: nil) { _ in }  // ⚠️
                        let _ = center.addObserver(forName: .didEnd, object: nil, queue: nil, using: { _ in })  // ⚠️
                    }
                }
                """)
    }

    @Test func leavesKeptTokensSelectorsAndAppLifetimeOwnersAlone() {
        expectFindings(
            .discardedObserver,
            in: """
                final class Player {
                    var token: NSObjectProtocol?
                    var tokens: [NSObjectProtocol] = []
                    init(center: NotificationCenter) {
                        token = center.addObserver(forName: .didEnd, object: nil, queue: nil) { _ in }
                        tokens.append(center.addObserver(forName: .didEnd, object: nil, queue: nil) { _ in })
                        center.addObserver(self, selector: #selector(stop), name: .didEnd, object: nil)
                        let kept = center.addObserver(forName: .didEnd, object: nil, queue: nil) { _ in }
                        self.token = kept
                    }
                }
                final class AppDelegate {
                    func start() { NotificationCenter.default.addObserver(forName: .x, object: nil, queue: nil) { _ in } }
                }
                NotificationCenter.default.addObserver(forName: .x, object: nil, queue: nil) { _ in }
                """)
    }
}
