/// The subscriber of `sink(boundTo:)` and `sink(attributedTo:)`: counts each value on its ledger
/// entry (a value after the owner's end is a zombie delivery) and calls the closure.
///
/// Thread-safe: its lifetime may cancel it from any thread while values arrive on another; what
/// changes is in one ``LockedBox``. Upstream is cancelled, and the closure released, after
/// unlocking: releasing a closure can run a captured object's `deinit`, which may re-enter.
final class BoundSink<Input>: Subscriber, Cancellable, Sendable {
    typealias Failure = Never

    private struct State {
        var subscription: (any Subscription)?
        /// Nil once terminal.
        var receiveValue: ((Input) -> Void)?
        /// What binds the sink to its lifetime (`sink(boundTo:)`): cut when the publisher
        /// finishes, so the lifetime does not keep the finished sink until it ends.
        var link: LifetimeLink?
    }

    private let entry: LedgerEntry?
    private let state: LockedBox<State>

    init(entry: LedgerEntry?, receiveValue: @escaping (Input) -> Void) {
        self.entry = entry
        state = LockedBox(State(receiveValue: receiveValue))
    }

    func receive(subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard state.receiveValue != nil, state.subscription == nil else { return false }
            state.subscription = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        // Copied out into a local, not returned: a closure result of a type generic over `Input`
        // would make every value look the type's metadata up.
        var body: ((Input) -> Void)?
        state.withLock { body = $0.receiveValue }
        // Consumed, not copied: a copy would retain the closure's context once more per value.
        guard let body = consume body else { return .none }
        // A zombie is recorded after the call: a change handler it tells may cancel the sink,
        // which must not be called after that.
        let zombie = entry?.countedSerially() == true
        body(input)
        if zombie { entry?.recordZombie() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        guard let taken = end() else { return }
        // Cut first: the entry ends once the lifetime is let go of (``LifetimeLink/cut()``).
        taken.link?.cut()
        entry?.end(.ended)
        // The closure and the subscription are released here, after unlocking.
    }

    /// Keeps the link to the lifetime the sink is bound to; false when the sink has ended.
    func keep(_ link: LifetimeLink) -> Bool {
        state.withLock { state in
            guard state.receiveValue != nil else { return false }
            state.link = link
            return true
        }
    }

    func cancel() {
        guard let taken = end() else { return }
        taken.subscription?.cancel()
    }

    /// Makes the sink terminal once; hands back what it held, to cancel and release unlocked.
    private func end() -> State? {
        state.withLock { state in
            guard state.receiveValue != nil else { return nil }
            defer { state = State() }
            return state
        }
    }
}
