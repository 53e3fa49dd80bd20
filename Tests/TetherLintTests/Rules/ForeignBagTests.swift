import Testing
import TetherLint

@Suite struct ForeignBagTests {
    @Test func findsStoresIntoAnotherObjectsBag() {
        expectFindings(
            .foreignBag,
            in: """
                final class Screen {
                    let session: Session
                    init(session: Session, service: Service) {
                        self.session = session
                        publisher.sink { [weak self] _ in self?.reload() }.store(in: &session.cancellables)  // ⚠️
                        subscription.store(boundTo: self.session.bag)  // ⚠️
                        subscription.store(in: self.session.bag)  // ⚠️
                        service.bag.insert(publisher.sink { _ in })  // ⚠️
                        liveData.add(observer: self, disposeBag: Store.shared.bag) { _ in }  // ⚠️
                    }
                }
                struct Row: View {
                    let model: RowModel
                    var body: some View {
                        Text("").onAppear { model.updates.sink { _ in }.store(in: &model.cancellables) }  // ⚠️
                    }
                }
                """)
    }

    @Test func leavesOwnBagsLocalsParametersAndTopLevelCodeAlone() {
        expectFindings(
            .foreignBag,
            in: """
                struct State { var cancellables = Set<AnyCancellable>() }
                final class Screen {
                    var cancellables = Set<AnyCancellable>()
                    var state = State()
                    let bag = DisposeBag()
                    func bind(into cancellables: inout Set<AnyCancellable>, bag: DisposeBag) {
                        publisher.sink { _ in }.store(in: &self.cancellables)
                        publisher.sink { _ in }.store(in: &cancellables)
                        publisher.sink { _ in }.store(in: &state.cancellables)
                        subscription.store(boundTo: bag)
                        subscription.store(in: bag)
                        bag.insert(publisher.sink { _ in })
                        liveData.add(observer: self, disposeBag: bag) { _ in }
                    }
                }
                final class AppDelegate {
                    func start() { publisher.sink { _ in }.store(in: &session.cancellables) }
                }
                publisher.sink { _ in }.store(in: &session.cancellables)
                """)
    }

    @Test func movesTheSubscriptionIntoTheTypesOwnBag() {
        let before = """
            final class Screen {
                var cancellables = Set<AnyCancellable>()
                init(session: Session) {
                    publisher.sink { _ in }.store(in: &session.cancellables)
                    task.store(in: session.bag)
                }
            }
            """
        let after = """
            final class Screen {
                var cancellables = Set<AnyCancellable>()
                init(session: Session) {
                    publisher.sink { _ in }.store(in: &cancellables)
                    task.store(in: session.bag)
                }
            }
            """
        #expect(fixed(.foreignBag, before) == after)
    }

    @Test func movesIntoTheTypesOwnLifetimeWithTethersSpelling() {
        let before = """
            import Tether
            final class Screen {
                let bag = DisposeBag()
                init(session: Session) {
                    subscription.store(boundTo: session.bag)
                    task.store(in: session.bag)
                }
            }
            """
        let after = """
            import Tether
            final class Screen {
                let bag = DisposeBag()
                init(session: Session) {
                    subscription.store(boundTo: bag)
                    task.store(boundTo: bag)
                }
            }
            """
        #expect(fixed(.foreignBag, before) == after)
        let fixes = Linter(rules: [.foreignBag]).check(source: before, path: "S.swift").map(\.fix)
        #expect(fixes == Array(repeating: "store it in Screen's own bag: .store(boundTo: bag)", count: 2))
    }
}
