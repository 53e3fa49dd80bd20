import Foundation

/// Runs each job of the tasks that prefer it on a new thread of its own. For a task a test must
/// see make progress while a thread it holds waits for it: every thread of the concurrency pool
/// (two, on a two-core machine) may be held meanwhile by other tests waiting on children.
public final class ThreadTaskExecutor: TaskExecutor, Sendable {
    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
