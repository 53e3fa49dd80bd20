import Testing
import TetherLint

@Suite struct UnownedSelfPublisherTests {
    @Test func findsUnownedSelfInReturnedChains() {
        expectFindings(
            .unownedSelfPublisher,
            in: """
                final class Forwarder {
                    func publisher() -> AnyPublisher<String, Never> {
                        return source
                            .map { [unowned self] in self.format($0) }  // ⚠️
                            .eraseToAnyPublisher()
                    }
                    var names: AnyPublisher<String, Never> {
                        source.map { [unowned self] in self.format($0) }.eraseToAnyPublisher()  // ⚠️
                    }
                    func titles() -> some Publisher<String, Never> {
                        source.compactMap { [unowned(unsafe) self] in self.title($0) }  // ⚠️
                    }
                    func later() -> AnyPublisher<String, Never> {
                        let mapped = source.map { [unowned self] in self.format($0) }  // ⚠️
                        return mapped.eraseToAnyPublisher()
                    }
                }
                """)
    }

    @Test func leavesFusedWeakAndUnreturnedChainsAlone() {
        expectFindings(
            .unownedSelfPublisher,
            in: """
                final class Forwarder {
                    var cancellables = Set<AnyCancellable>()
                    func publisher() -> AnyPublisher<String, Never> {
                        source.map { [unowned self] in self.format($0) }
                            .fuse(heldBy: self, on: \\.cancellables)
                            .eraseToAnyPublisher()
                    }
                    func weak() -> AnyPublisher<String?, Never> {
                        source.map { [weak self] in self?.format($0) }.eraseToAnyPublisher()
                    }
                    func subscribe() {
                        source.map { [unowned self] in self.format($0) }.sink { print($0) }.store(in: &cancellables)
                    }
                    func count() -> Int { items.filter { [unowned self] in self.keep($0) }.count }
                }
                final class AppDelegate {
                    func publisher() -> AnyPublisher<String, Never> {
                        source.map { [unowned self] in self.format($0) }.eraseToAnyPublisher()
                    }
                }
                func free() -> AnyPublisher<String, Never> { source.map { $0 }.eraseToAnyPublisher() }
                """)
    }

    @Test func fusesTheChainBeforeItIsErased() {
        let before = """
            import Tether
            final class Forwarder {
                private var cancellables = Set<AnyCancellable>()
                func publisher() -> AnyPublisher<String, Never> {
                    source
                        .map { [unowned self] in self.format($0) }
                        .eraseToAnyPublisher()
                }
            }
            """
        let after = """
            import Tether
            final class Forwarder {
                private var cancellables = Set<AnyCancellable>()
                func publisher() -> AnyPublisher<String, Never> {
                    source
                        .map { [unowned self] in self.format($0) }
                        .fuse(heldBy: self, on: \\.cancellables)
                        .eraseToAnyPublisher()
                }
            }
            """
        #expect(fixed(.unownedSelfPublisher, before) == after)
    }
}
