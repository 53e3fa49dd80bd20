import Testing
import TetherLint

@Suite struct TaskInSinkTests {
    @Test func findsTasksASinkStartsAndForgets() {
        expectFindings(
            .taskInSink,
            in: """
                final class Uploader {
                    var current: Task<Void, Never>?
                    init(values: AnyPublisher<Int, Never>) {
                        values.sink { value in
                            Task { for await progress in self.upload(value) { print(progress) } }  // ⚠️
                        }.store(in: &cancellables)
                        values.sink(boundTo: lifetime) { value in
                            _ = Task.detached { for try await line in lines { print(line, value) } }  // ⚠️
                        }
                        values.sink { value in
                            let task = Task.attributed(to: lifetime) { await self.poll() }  // ⚠️
                            self.current = task
                        }.store(in: &cancellables)
                    }
                    func poll() async { while !Task.isCancelled { await step() } }
                }
                extension Publisher {
                    func naiveAsyncSink(_ body: @escaping (Output) async -> Void) -> AnyCancellable {
                        sink { value in Task { await body(value) } }  // ⚠️
                    }
                }
                """)
    }

    @Test func leavesKeptTasksAsyncSinkAndOtherClosuresAlone() {
        expectFindings(
            .taskInSink,
            in: """
                final class Uploader {
                    var current: Task<Void, Never>?
                    var cancellables = Set<AnyCancellable>()
                    init(values: AnyPublisher<Int, Never>) {
                        values.sink { [weak self] value in
                            Task { for await _ in updates { } }.store(in: &self!.cancellables)
                        }.store(in: &cancellables)
                        values.sink { [weak self] value in
                            self?.current?.cancel()
                            self?.current = Task { for await _ in updates { } }
                        }.store(in: &cancellables)
                        values.asyncSink { value in await self.upload(value) }.store(in: &cancellables)
                        button.onTap { Task { for await _ in updates { } } }
                        values.sink { value in
                            Task(boundTo: lifetime) { for await _ in updates { } }
                            lifetime.task { for await _ in updates { } }
                        }.store(in: &cancellables)
                        // A one-shot task per value ends by itself, after a delay too.
                        values.sink { [weak self] value in
                            Task { await self?.upload(value) }
                        }.store(in: &cancellables)
                        values.sink { value in
                            Task {
                                try await Task.sleep(for: .milliseconds(100))
                                await self.upload(value)
                            }
                        }.store(in: &cancellables)
                    }
                }
                values.sink { value in Task { for await _ in updates { } } }
                """)
    }
}
