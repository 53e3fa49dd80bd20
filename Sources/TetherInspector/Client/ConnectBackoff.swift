import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When a client tries to connect again: only while the server's queue of connections is full
/// (`EAGAIN`: the server is live, and more clients arrived than it has accepted yet), after a
/// wait that starts at a millisecond and doubles up to ``maximumDelay``, until the waits add up to
/// the budget. A pure value: the client feeds it each failure and schedules the wait it returns.
struct ConnectBackoff: Equatable {
    static let firstDelay = TimeAmount.milliseconds(1)
    static let maximumDelay = TimeAmount.milliseconds(100)

    /// The most the waits add up to.
    let budget: TimeAmount
    private(set) var waited = TimeAmount.zero
    private var next = ConnectBackoff.firstDelay

    init(budget: TimeAmount) {
        self.budget = budget
    }

    /// The wait before the next attempt after one failed with `code`, or nil: give up, with that
    /// attempt's error.
    mutating func delay(after code: Int32) -> TimeAmount? {
        guard Self.isQueueFull(code), waited < budget else { return nil }
        let delay = min(next, budget - waited)
        waited = waited + delay
        next = min(next * 2, ConnectBackoff.maximumDelay)
        return delay
    }

    /// Whether a connect failed with `code` because the server's queue of connections is full.
    static func isQueueFull(_ code: Int32) -> Bool { code == EAGAIN || code == EWOULDBLOCK }
}
