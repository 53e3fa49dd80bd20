import Tether

/// The tasks a test started, followed through a task-local value that every task made inside the
/// test inherits — its tasks' tasks too, but not a detached task — and lets go of when it
/// completes: while one of them runs, the value is alive.
struct TestTasks: Sendable {
    private final class Mark: Sendable {}

    @TaskLocal private static var current: Mark?

    private weak let mark: Mark?

    /// Whether a task the test started is still running.
    var areRunning: Bool { mark != nil }

    /// Runs `body`, marking the tasks it starts; the error it threw, if any.
    static func run(
        _ body: () async throws -> Void
    ) async -> (tasks: TestTasks, thrown: (any Error)?) {
        let mark = Mark()
        let tasks = TestTasks(mark: mark)
        do {
            try await $current.withValue(mark) { try await body() }
            return (tasks, nil)
        } catch {
            return (tasks, error)
        }
    }
}
