import Testing
import TetherLint

@Suite struct UnstoredTaskTests {
    @Test func findsDiscardedLoopingTasksInClassesActorsAndViews() {
        expectFindings(
            .unstoredTask,
            in: """
                import Combine
                final class Feed {
                    var cancellables = Set<AnyCancellable>()
                    init(updates: AsyncStream<Int>) {
                        Task { [weak self] in  // ⚠️
                            for await value in updates { self?.show(value) }
                        }
                        _ = Task.detached {  // ⚠️
                            for try await line in lines { print(line) }
                        }
                        let _ = Task { while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) } }  // ⚠️
                        Task.attributed(to: lifetime) { for await _ in updates { tick() } }  // ⚠️
                    }
                    func show(_ value: Int) {}
                    func tick() {}
                }
                actor Poller {
                    func start() {
                        Task { await self.listen() }  // ⚠️
                    }
                    func listen() async { while true { await step() } }
                    func step() async {}
                }
                struct Clock: View {
                    var body: some View {
                        Text("").onAppear {
                            Task { for await _ in ticks { } }  // ⚠️
                        }
                    }
                }
                """)
    }

    @Test func leavesStoredBoundAndFiniteTasksAlone() {
        expectFindings(
            .unstoredTask,
            in: """
                final class Feed {
                    var task: Task<Void, Never>?
                    var tasks: [Task<Void, Never>] = []
                    let lifetime = Lifetime()
                    init(updates: AsyncStream<Int>) {
                        // A stored task; a task cancelled in deinit.
                        task = Task { [weak self] in for await v in updates { self?.show(v) } }
                        Task { for await v in updates { print(v) } }.store(boundTo: lifetime)
                        Task { for await v in updates { print(v) } }.store(in: lifetime)  // the old spelling
                        tasks.append(Task { for await v in updates { print(v) } })
                        let kept = Task { for await v in updates { print(v) } }
                        self.other = kept
                        // Tether's bound forms, and the old spelling of the first.
                        Task(boundTo: lifetime) { [weak self] in for await v in updates { self?.show(v) } }
                        Task(boundTo: lifetime, priority: .low) { for await v in updates { self.show(v) } }
                        lifetime.task { [weak self] in for await v in updates { self?.show(v) } }
                        updates.forEach(boundTo: lifetime) { [weak self] v in self?.show(v) }
                        // A Task {} with no loop.
                        Task { await self.load() }
                        Task { await withTaskGroup(of: Void.self) { group in for await _ in group {} } }
                    }
                    deinit { task?.cancel() }
                    func show(_ value: Int) {}
                    func load() async {}
                    func make() -> Task<Void, Never> { Task { for await _ in s {} } }
                }
                // A struct that is not a View; top-level code.
                struct Parser {
                    func run() { Task { for await line in lines { print(line) } } }
                }
                Task { for await line in lines { print(line) } }
                // App-lifetime owners; static members.
                final class AppDelegate { func start() { Task { for await _ in s {} } } }
                final class Store {
                    static let shared = Store()
                    func start() { Task { for await _ in s {} } }
                }
                final class Util { static func start() { Task { for await _ in s {} } } }
                """)
    }

    @Test func leavesAWeakLoopOverAStreamItsDeinitFinishesAlone() {
        expectFindings(
            .unstoredTask,
            in: """
                final class Room {
                    private let continuation: AsyncStream<Event>.Continuation
                    init() {
                        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
                        self.continuation = continuation
                        Task { [weak self] in
                            for await event in stream { self?.handle(event) }
                        }
                        Task { [weak self] in  // ⚠️
                            guard let self else { return }
                            for await event in stream { handle(event) }
                        }
                    }
                    deinit { continuation.finish() }
                    func handle(_ event: Event) {}
                }
                """)
    }

    @Test func storesInTheOneBagWhenTheFileImportsTether() {
        let before = """
            import Tether
            final class Feed {
                var cancellables = Set<AnyCancellable>()
                init(updates: AsyncStream<Int>) {
                    Task { [weak self] in
                        for await value in updates { self?.show(value) }
                    }
                    _ = Task { for await _ in updates {} }
                }
            }
            """
        let after = """
            import Tether
            final class Feed {
                var cancellables = Set<AnyCancellable>()
                init(updates: AsyncStream<Int>) {
                    Task { [weak self] in
                        for await value in updates { self?.show(value) }
                    }.store(in: &cancellables)
                    Task { for await _ in updates {} }.store(in: &cancellables)
                }
            }
            """
        #expect(fixed(.unstoredTask, before) == after)
    }

    @Test func offersNoEditWithoutTetherOrOneBag() {
        let withoutTether = """
            final class Feed {
                var cancellables = Set<AnyCancellable>()
                init() { Task { for await _ in updates {} } }
            }
            """
        let twoBags = """
            import Tether
            final class Feed {
                var cancellables = Set<AnyCancellable>()
                let lifetime = Lifetime()
                init() { Task { for await _ in updates {} } }
            }
            """
        #expect(fixed(.unstoredTask, withoutTether) == withoutTether)
        #expect(fixed(.unstoredTask, twoBags) == twoBags)
        let finding = Linter(rules: [.unstoredTask]).check(source: twoBags, path: "F.swift").first
        #expect(finding?.fix?.contains(".store(boundTo: bag) or Task(boundTo: bag) { }") == true)
    }

    @Test func bindsToTheOneLifetimeWithTethersSpelling() {
        let before = """
            import Tether
            final class Feed {
                let lifetime = Lifetime()
                init(updates: AsyncStream<Int>) {
                    Task { for await _ in updates {} }
                }
            }
            """
        let after = """
            import Tether
            final class Feed {
                let lifetime = Lifetime()
                init(updates: AsyncStream<Int>) {
                    Task { for await _ in updates {} }.store(boundTo: lifetime)
                }
            }
            """
        #expect(fixed(.unstoredTask, before) == after)
        let finding = Linter(rules: [.unstoredTask]).check(source: before, path: "F.swift").first
        #expect(finding?.fix == "store it in Feed's lifetime: .store(boundTo: lifetime)")
    }
}
