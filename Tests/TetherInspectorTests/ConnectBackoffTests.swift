import NIOCore
import Testing

@testable import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ConnectBackoffTests {
    /// Waits double from a millisecond up to 100 ms, and stop when they add up to the budget.
    @Test func aFullQueueIsTriedAgainSoonThenLessOftenUntilTheBudgetIsSpent() {
        var backoff = ConnectBackoff(budget: .seconds(1))
        var waits: [Int64] = []
        while let wait = backoff.delay(after: EAGAIN) { waits.append(wait.nanoseconds / 1_000_000) }
        #expect(waits.prefix(8) == [1, 2, 4, 8, 16, 32, 64, 100])
        #expect(waits.dropFirst(7).dropLast().allSatisfy { $0 == 100 })
        #expect(waits.reduce(0, +) == 1_000, "the last wait fills the budget exactly")
        #expect(backoff.waited == .seconds(1))
        #expect(backoff.delay(after: EAGAIN) == nil, "spent: stays spent")
    }

    /// Any other failure is an answer: a refused connection is a stale socket, not a busy one.
    @Test func onlyAFullQueueIsTriedAgain() {
        for code in [ECONNREFUSED, ENOENT, EACCES, ENOTSOCK, EIO] {
            var backoff = ConnectBackoff(budget: .seconds(5))
            #expect(backoff.delay(after: code) == nil, "errno \(code)")
        }
        var none = ConnectBackoff(budget: .zero)
        #expect(none.delay(after: EAGAIN) == nil)
    }
}
