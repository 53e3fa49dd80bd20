import Synchronization

/// The subscriber of `sink(boundTo:)` and `sink(attributedTo:)`: a sink that counts each
/// value on its ledger entry and calls the receiving closure itself.
///
/// It replaces OpenCombine's `Sink` with a counting closure around the user's: one closure call
/// per value instead of two, and a `Mutex` instead of a `pthread_mutex_t` to read the closure.
/// The count is ``LedgerEntry/deliveredSerially()``: Combine calls `receive(_:)` serially.
/// A value arriving after the owner ended still counts as a zombie delivery.
///
/// `@unchecked Sendable` because its lifetime may cancel it from any thread while values arrive
/// on another: `lock` protects `subscription`, `receiveValue` and `isTerminal`. Upstream is
/// cancelled, and the closure released, only after unlocking: releasing a closure can run a
/// captured object's `deinit`, which may re-enter.
///
/// The per-value path takes nothing generic out of the lock: an optional closure has the same
/// layout whatever `Input` is, so reading it needs no metadata lookup.
final class BoundSink<Input>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Failure = Never

    private let lock = Mutex(())
    private let entry: LedgerEntry?
    private var subscription: (any Subscription)?
    private var receiveValue: ((Input) -> Void)?
    private var isTerminal = false

    init(entry: LedgerEntry?, receiveValue: @escaping (Input) -> Void) {
        self.entry = entry
        self.receiveValue = receiveValue
    }

    func receive(subscription: any Subscription) {
        let accepted = lock.withLock { _ -> Bool in
            guard !isTerminal, self.subscription == nil else { return false }
            self.subscription = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        var body: ((Input) -> Void)?
        lock.withLock { _ in body = receiveValue }
        guard let body else { return .none }
        entry?.deliveredSerially()
        body(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        guard let taken = end() else { return }
        entry?.end(.ended)
        // The closure and the subscription are released here, after unlocking.
        _ = taken
    }

    func cancel() {
        guard let taken = end() else { return }
        taken.subscription?.cancel()
    }

    /// Marks the sink terminal once; hands back what it held, to cancel and release unlocked.
    private func end() -> (subscription: (any Subscription)?, receiveValue: ((Input) -> Void)?)? {
        lock.withLock { _ in
            guard !isTerminal else { return nil }
            isTerminal = true
            defer {
                subscription = nil
                receiveValue = nil
            }
            return (subscription, receiveValue)
        }
    }
}
