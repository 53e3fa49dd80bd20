import Testing
import TetherLint

@Suite struct SinkRetainCycleTests {
    @Test func findsSubscriptionsThatHoldSelfAndThatSelfKeeps() {
        expectFindings(
            .sinkRetainCycle,
            in: """
                final class Profile {
                    @Observed var name = ""
                    var cancellables = Set<AnyCancellable>()
                    var subscription: AnyCancellable?
                    let bag = DisposeBag()
                    var title = ""
                    init(model: Model, liveData: LiveData<String>) {
                        model.$name.sink { self.title = $0 }.store(in: &cancellables)  // ⚠️
                        subscription = model.changes
                            .sink { [weak model] _ in model?.touch(); self.refresh() }  // ⚠️
                        self.subscription = model.changes.sink(attributedTo: lifetime) { _ in self.refresh() }  // ⚠️
                        model.$name.assign(to: \\.title, on: self).store(in: &cancellables)  // ⚠️
                        model.changes.sink { _ in Task { [weak self] in self?.refresh() } }.store(in: &self.cancellables)  // ⚠️
                        let kept = model.changes.sink { _ in self.refresh() }  // ⚠️
                        kept.store(in: &cancellables)
                        $name.observe(.did, attributedTo: lifetime) { new, _ in self.title = new }  // ⚠️
                        liveData.add(observer: self, disposeBag: bag) { value in self.title = value }  // ⚠️
                    }
                    func refresh() {}
                }
                """)
    }

    @Test func leavesWeakBoundFiniteAndUnkeptSubscriptionsAlone() {
        expectFindings(
            .sinkRetainCycle,
            in: """
                final class Profile {
                    @Observed var name = ""
                    var cancellables = Set<AnyCancellable>()
                    let lifetime = Lifetime()
                    var title = ""
                    init(model: Model, session: Session) {
                        model.$name.sink { [weak self] in self?.title = $0 }.store(in: &cancellables)
                        model.$name.sink { [unowned self] in self.title = $0 }.store(in: &cancellables)
                        model.$name.sink(boundTo: lifetime) { self.title = $0 }
                        $name.observe(.did, boundTo: lifetime) { new, _ in self.title = new }
                        $name.observe(.did, in: lifetime) { new, _ in self.title = new }
                        Just(1).sink { _ in self.refresh() }.store(in: &cancellables)
                        api.fetch().first().sink { _ in self.refresh() }.store(in: &cancellables)
                        model.$name.sink { print("self is \\($0)") }.store(in: &cancellables)
                        model.$name.sink { _ in self.refresh() }.store(in: &session.cancellables)
                        model.$name.assign(to: &$name)
                    }
                    func refresh() {}
                }
                final class AppDelegate {
                    var cancellables = Set<AnyCancellable>()
                    func start() { model.$name.sink { _ in self.refresh() }.store(in: &cancellables) }
                }
                struct Row: View {
                    @State var cancellables = Set<AnyCancellable>()
                    func start() { model.$name.sink { _ in self.refresh() }.store(in: &cancellables) }
                }
                model.$name.sink { _ in refresh() }.store(in: &cancellables)
                """)
    }

    @Test func capturesSelfWeaklyAndUnwrapsItFirst() {
        let before = """
            final class Profile {
                init(model: Model) {
                    model.$name.sink { self.title = $0 }.store(in: &cancellables)
                    model.$name
                        .sink { name in
                            self.title = name
                        }
                        .store(in: &cancellables)
                    model.$name.sink { [model] name in self.title = model.prefix + name }.store(in: &cancellables)
                    model.$name.sink { @MainActor name in self.title = name }.store(in: &cancellables)
                }
                var cancellables = Set<AnyCancellable>()
                var title = ""
            }
            """
        let after = """
            final class Profile {
                init(model: Model) {
                    model.$name.sink { [weak self] in guard let self else { return }; self.title = $0 }.store(in: &cancellables)
                    model.$name
                        .sink { [weak self] name in
                            guard let self else { return }
                            self.title = name
                        }
                        .store(in: &cancellables)
                    model.$name.sink { [weak self, model] name in guard let self else { return }; self.title = model.prefix + name }.store(in: &cancellables)
                    model.$name.sink { @MainActor [weak self] name in guard let self else { return }; self.title = name }.store(in: &cancellables)
                }
                var cancellables = Set<AnyCancellable>()
                var title = ""
            }
            """
        #expect(fixed(.sinkRetainCycle, before) == after)
    }
}
