import Testing
import TetherLint

@Suite struct StrongSelfLoopTests {
    @Test func findsLoopsThatHoldTheirOwner() {
        expectFindings(
            .strongSelfLoop,
            in: """
                final class Feed {
                    var count = 0
                    var task: Task<Void, Never>?
                    var cancellables = Set<AnyCancellable>()
                    init(updates: AsyncStream<Int>) {
                        Task { [weak self] in
                            guard let self else { return }  // ⚠️
                            for await value in updates { self.count += value }
                        }
                        task = Task { [weak self] in
                            if let self = self {  // ⚠️
                                for try await value in updates { count += value }
                            }
                        }
                        Task {
                            for await value in updates {
                                count += value  // ⚠️
                            }
                        }.store(in: &cancellables)
                        Task { [roomProxy] in
                            for await _ in roomProxy.updates {
                                self.refresh()  // ⚠️
                            }
                        }
                        Task { [weak self] in
                            await self?.listen()  // ⚠️
                        }
                        let values = Observations { self.count }  // ⚠️
                    }
                    deinit { task?.cancel() }
                    func listen() async { for await _ in stream { refresh() } }
                    func refresh() {}
                }
                """)
    }

    @Test func leavesWeakUnwrapsInsideLoopsBoundTasksAndValueTypesAlone() {
        expectFindings(
            .strongSelfLoop,
            in: """
                final class Feed {
                    var count = 0
                    var task: Task<Void, Never>?
                    let lifetime = Lifetime()
                    init(updates: AsyncStream<Int>) {
                        // [weak self] with the unwrap inside the loop.
                        Task { [weak self] in
                            for await value in updates {
                                guard let self else { return }
                                self.count += value
                            }
                        }
                        // Tether's bound forms.
                        Task(boundTo: lifetime) { for await value in updates { self.count += value } }
                        Task { for await value in updates { self.count += value } }.store(boundTo: lifetime)
                        lifetime.task { for await value in updates { self.count += value } }
                        Task { for await value in updates { self.count += value } }.store(in: lifetime)
                        Observations { self.count }.forEach(boundTo: lifetime) { print($0) }
                        // A Task {} with no loop; a closure that only names self in a string.
                        Task { await self.load() }
                        Task { for await value in updates { print("self \\(value)") } }
                    }
                    // A task stored in a property that another method cancels.
                    func start(_ updates: AsyncStream<Int>) {
                        task = Task { for await value in updates { count += value } }
                    }
                    func stop() { task?.cancel() }
                    func load() async {}
                }
                // A struct that is not a View, a View, and top-level code.
                struct Parser {
                    var count = 0
                    func run() { Task { for await line in lines { print(count, line) } } }
                }
                struct Clock: View {
                    var body: some View { Text("").task { for await _ in ticks { self.tick() } } }
                }
                Task { for await line in lines { print(line) } }
                """)
    }

    @Test func movesTheUnwrapInsideTheLoop() {
        let before = """
            final class Feed {
                init(updates: AsyncStream<Int>) {
                    Task { [weak self] in
                        guard let self else { return }
                        for await value in updates {
                            self.show(value)
                        }
                    }
                }
            }
            """
        let after = """
            final class Feed {
                init(updates: AsyncStream<Int>) {
                    Task { [weak self] in
                        for await value in updates {
                            guard let self else { return }
                            self.show(value)
                        }
                    }
                }
            }
            """
        #expect(fixed(.strongSelfLoop, before) == after)
    }

    @Test func leavesTheUnwrapWhereSelfIsNeededOutsideTheLoop() {
        let source = """
            final class Feed {
                var updates: AsyncStream<Int>
                init() {
                    Task { [weak self] in
                        guard let self else { return }
                        for await value in self.updates {
                            self.show(value)
                        }
                    }
                }
            }
            """
        #expect(fixed(.strongSelfLoop, source) == source)
        #expect(Linter(rules: [.strongSelfLoop]).check(source: source, path: "F.swift").count == 1)
    }
}
