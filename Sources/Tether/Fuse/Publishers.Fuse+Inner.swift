extension Publishers.Fuse {
    /// One subscription through a fuse, as its subscriber and its fuse see it: what the subscriber
    /// requests and cancels, and what the fuse blows.
    ///
    /// Thread-safe: the fuse blows it from any thread. Its state is in one ``LockedBox``, changed on
    /// the rare paths (subscription, request, completion, cancel, blow); every way of ending goes
    /// through ``end(_:)``, once. Upstream and the subscriber are called, and released, after
    /// unlocking. Values do not come here: they pass through the ``Relay`` and its gate alone.
    final class Inner<Downstream: Subscriber>: Subscription, FuseMember, Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        /// How the subscription ends.
        enum Ending {
            /// Upstream completed: the subscriber gets the completion.
            case completed(Subscribers.Completion<Failure>)
            /// The subscriber cancelled.
            case cancelled
            /// The fuse blew: upstream is cancelled, the subscriber finished.
            case blown

            /// Whether upstream ended it: then upstream is not cancelled, and the entry ended, not
            /// cancelled.
            var byUpstream: Bool {
                if case .completed = self { true } else { false }
            }
        }

        /// What ending leaves to do once unlocked.
        struct Settlement {
            /// Upstream's subscription, to cancel unless it completed; released with the settlement
            /// (its `deinit` may end the fuse's holder, and so blow the fuse); nil when it never
            /// subscribed.
            let upstream: (any Subscription)?
            /// What to send the subscriber now, if anything.
            let completion: Subscribers.Completion<Failure>?
            /// The relay to the subscriber, released with the settlement (the subscriber with it,
            /// unless a delivery still runs; then when that returns).
            let relay: Relay<Downstream>
            /// This subscription's hold on the fuse, released last.
            let core: FuseCore?
        }

        private struct State {
            /// Set before the subscription is handed out; nil once it has ended.
            var relay: Relay<Downstream>?
            var upstream: (any Subscription)?
            var pendingDemand = Subscribers.Demand.none
            /// Held while the subscription lasts: a fuse in use keeps its token in the holder's set.
            var core: FuseCore?
        }

        private let state: LockedBox<State>

        init(core: FuseCore) {
            state = LockedBox(State(core: core))
        }

        /// Gives the subscription its relay, before it is handed out.
        func attach(_ relay: Relay<Downstream>) {
            state.withLock { $0.relay = relay }
        }

        /// Upstream's subscription arrived: the demand requested meanwhile, or nil when this
        /// subscription has ended and `subscription` must be cancelled.
        func subscribed(to subscription: any Subscription) -> Subscribers.Demand? {
            state.withLock { state in
                guard let relay = state.relay, relay.gate.subscribe() else { return nil }
                state.upstream = subscription
                defer { state.pendingDemand = .none }
                return state.pendingDemand
            }
        }

        func request(_ demand: Subscribers.Demand) {
            let upstream = state.withLock { state -> (any Subscription)? in
                switch state.relay?.gate.current.status ?? .terminal {
                case .awaitingUpstream:
                    state.pendingDemand += demand
                    return nil
                case .subscribed:
                    return state.upstream
                case .terminal:
                    return nil
                }
            }
            upstream?.request(demand)
        }

        func cancel() { end(.cancelled) }

        func blow() { end(.blown) }

        /// Ends the subscription, if it has not ended: the one way it ends.
        func end(_ ending: Ending) {
            guard let settlement = state.withLock({ settle(&$0, ending) }) else { return }
            settlement.relay.entry?.end(ending.byUpstream ? .ended : .cancelled)
            settlement.core?.unregister(self)
            if !ending.byUpstream { settlement.upstream?.cancel() }
            if let completion = settlement.completion {
                settlement.relay.downstream.receive(completion: completion)
            }
        }

        /// Under the lock: marks the gate terminal and takes everything out of `state`; nil if the
        /// subscription had ended.
        private func settle(_ state: inout State, _ ending: Ending) -> Settlement? {
            guard let relay = state.relay else { return nil }
            let completion: Subscribers.Completion<Failure>?
            switch ending {
            case .completed(let upstreamCompletion):
                guard relay.gate.end(blown: false) != nil else { return nil }
                completion = upstreamCompletion
            case .cancelled:
                guard relay.gate.end(blown: false) != nil else { return nil }
                completion = nil
            case .blown:
                // Blown during a delivery, the subscriber is finished by the last to leave.
                guard let finishesNow = relay.gate.end(blown: true) else { return nil }
                completion = finishesNow ? .finished : nil
            }
            defer { state = State() }
            return Settlement(
                upstream: state.upstream, completion: completion, relay: relay, core: state.core)
        }
    }

    /// The upstream's subscriber for one subscription through a fuse: passes each value to the
    /// subscriber through its gate, with no lock.
    ///
    /// What a value needs is here, immutable: the gate, the ledger entry, the subscriber. It holds
    /// the subscriber for as long as it lives: upstream holds it until the subscription ends, the
    /// ``Inner`` too, and a delivery while it runs; once they let go, the subscriber is released.
    final class Relay<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// The subscription's status and the deliveries running (see ``FuseGate``).
        let gate = AtomicFuseGate()
        let entry: LedgerEntry?
        let downstream: Downstream
        let inner: Inner<Downstream>

        init(inner: Inner<Downstream>, downstream: Downstream, entry: LedgerEntry?) {
            self.inner = inner
            self.downstream = downstream
            self.entry = entry
        }

        /// Hands the subscription downstream (the gate starts with that delivery), then subscribes
        /// upstream unless the subscription ended meanwhile.
        func start(upstream publisher: Upstream) {
            downstream.receive(subscription: inner)
            leave()
            if gate.current.status == .awaitingUpstream { publisher.subscribe(self) }
        }

        func receive(subscription: any Subscription) {
            guard let demand = inner.subscribed(to: subscription) else {
                subscription.cancel()
                return
            }
            if demand > 0 { subscription.request(demand) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard gate.enter() else {
                leave()
                return .none
            }
            // Combine calls `receive(_:)` serially, so the count needs no locked increment.
            entry?.deliveredSerially()
            let demand = downstream.receive(input)
            return leave() ? .none : demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            inner.end(.completed(completion))
        }

        /// Ends a delivery; finishes the subscriber if the fuse blew meanwhile and this was the last
        /// delivery. True if it did.
        @discardableResult
        private func leave() -> Bool {
            guard gate.leave() else { return false }
            finish()
            return true
        }

        /// The rare half of ``leave()``, out of line so that the per-value path stays small.
        @inline(never)
        private func finish() {
            downstream.receive(completion: .finished)
        }
    }
}
