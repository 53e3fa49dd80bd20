import Synchronization

/// The subscriber of `sink(boundTo:)` and `sink(attributedTo:)`: counts each value on its ledger
/// entry (a value after the owner's end is a zombie delivery) and calls the closure.
///
/// `@unchecked Sendable`: its lifetime may cancel it from any thread while values arrive on
/// another, and `lock` protects `subscription`, `receiveValue` and `isTerminal`. (They arrive
/// through `Subscriber` requirements that cannot take them as `sending`, so a `Mutex<State>` does
/// not compile.) Upstream is cancelled, and the closure released, after unlocking: releasing a
/// closure can run a captured object's `deinit`, which may re-enter.
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
