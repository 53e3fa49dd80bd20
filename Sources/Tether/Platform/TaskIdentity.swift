/// The identity of a running task, to tell the task that bound something from a task started
/// inside it (a task local would not do: child and unstructured tasks inherit it). Meaningful
/// while the task runs: a task made after it ends may take its identity (its address).
struct TaskIdentity: Equatable, Sendable {
    private let raw: Int

    /// The running task; nil outside any task.
    static var current: TaskIdentity? {
        withUnsafeCurrentTask { task in task.map { TaskIdentity(raw: $0.hashValue) } }
    }
}
