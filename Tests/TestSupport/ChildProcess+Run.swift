import Foundation
import Testing

extension ChildProcess {
    /// Runs `executable` to its end on a thread of its own, and gives its status and what it
    /// wrote. For a child that runs long (a build): waiting for it on one of the few threads that
    /// run the tests' tasks would starve every task that needs one meanwhile.
    public static func run(
        _ executable: String, _ arguments: [String], within bound: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { done in
            Thread {
                do {
                    let child = try ChildProcess(executable, arguments)
                    let status = child.waitForExit(within: bound, sourceLocation: sourceLocation)
                    done.resume(returning: Result(status: status, stdout: child.output, stderr: child.errors))
                } catch {
                    done.resume(throwing: error)
                }
            }.start()
        }
    }
}
