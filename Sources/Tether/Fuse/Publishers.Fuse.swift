import Synchronization

extension Publishers {
    /// A publisher that cuts every subscription through it when its holder deallocates.
    ///
    /// Made by `Publisher.fuse(heldBy:on:)`. When the fuse *blows* — its holder
    /// deinitializes and releases the fuse's token, or the token is cancelled — each subscription
    /// is cancelled upstream (releasing the closures above the fuse, such as a `map` capturing
    /// the holder `unowned`) and finished downstream. A subscriber that arrives after that gets a
    /// subscription and `.finished` at once.
    ///
    /// Values pass through synchronously, on the sending thread. Each subscription is a
    /// `subscription` entry in the ledger current when it was made, counting its deliveries.
    ///
    /// Thread-safe: the holder may deinitialize on one thread while values are sent on another;
    /// a value being delivered when the fuse blows is delivered in full, then `.finished`.
    public struct Fuse<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher the fuse cuts.
        public let upstream: Upstream
        private let anchor: FuseAnchor
        private let site: CallSite

        init(upstream: Upstream, anchor: FuseAnchor, site: CallSite) {
            self.upstream = upstream
            self.anchor = anchor
            self.site = site
        }

        /// Whether the fuse has blown.
        public var isBlown: Bool { anchor.core.isBlown }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let entry = Ledger.current.open(.subscription, owner: nil, site: site, bound: false)
            let inner = Inner(downstream: subscriber, anchor: anchor, entry: entry)
            guard anchor.core.register(inner) else {
                entry?.end(.cancelled)
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            inner.start(upstream: upstream)
        }
    }
}

extension Publisher {
    /// Cuts every subscription through the returned publisher when `holder` deallocates.
    ///
    /// The fuse puts a token in `holder`'s set; when the holder deinitializes, the set releases
    /// the token and the fuse blows: each subscription is cancelled upstream and finished
    /// downstream. When nothing uses the fuse any more (no subscription, publisher released),
    /// its token leaves the set again.
    ///
    /// ```swift
    /// final class Forwarder {
    ///     private var cancellables = Set<AnyCancellable>()
    ///     func publisher() -> AnyPublisher<String, Never> {
    ///         repository.values
    ///             .map { [unowned self] in self.describe($0) }
    ///             .fuse(heldBy: self, on: \.cancellables)
    ///             .eraseToAnyPublisher()
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - holder: The object whose deallocation blows the fuse; held weakly.
    ///   - keyPath: The holder's set of cancellables, which keeps the fuse's token.
    ///   - fileID: The file of the call site the ledger records; leave it to its default.
    ///   - line: The line of that call site; leave it to its default.
    /// - Returns: A publisher finishing every subscriber when `holder` deallocates.
    ///
    /// Thread-safety: the fuse itself is thread-safe. The holder's set is written when the fuse
    /// is made and when the fuse is last released, on those threads: like any property of the
    /// holder, do not write it from two threads at once.
    public func fuse<Holder: AnyObject>(
        heldBy holder: Holder, on keyPath: ReferenceWritableKeyPath<Holder, Set<AnyCancellable>>,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Publishers.Fuse<Self> {
        let core = FuseCore()
        let token = AnyCancellable { [weak core] in core?.blow() }
        holder[keyPath: keyPath].insert(token)
        let anchor = FuseAnchor(core: core) { [weak holder, weak token] in
            guard let holder, let token else { return }
            holder[keyPath: keyPath].remove(token)
        }
        return Publishers.Fuse(upstream: self, anchor: anchor, site: CallSite(fileID: fileID, line: line))
    }

    /// Cuts every subscription through the returned publisher when `holder` deallocates, keeping
    /// the fuse's token in one `AnyCancellable?` slot of the holder.
    ///
    /// The token takes the slot: what was there is released (and so cancelled). Otherwise as
    /// ``fuse(heldBy:on:fileID:line:)-(_,ReferenceWritableKeyPath<Holder,Set<AnyCancellable>>,_,_)``.
    ///
    /// ```swift
    /// final class Forwarder {
    ///     private var fuse: AnyCancellable?
    ///     func publisher() -> some Publisher<Int, Never> { values.fuse(heldBy: self, on: \.fuse) }
    /// }
    /// ```
    ///
    /// - Returns: A publisher finishing every subscriber when `holder` deallocates. Thread-safety
    ///   as for the set form.
    public func fuse<Holder: AnyObject>(
        heldBy holder: Holder, on keyPath: ReferenceWritableKeyPath<Holder, AnyCancellable?>,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Publishers.Fuse<Self> {
        let core = FuseCore()
        let token = AnyCancellable { [weak core] in core?.blow() }
        let replaced = holder[keyPath: keyPath]
        holder[keyPath: keyPath] = token
        replaced?.cancel()
        let anchor = FuseAnchor(core: core) { [weak holder, weak token] in
            guard let holder, let token, holder[keyPath: keyPath] === token else { return }
            holder[keyPath: keyPath] = nil
        }
        return Publishers.Fuse(upstream: self, anchor: anchor, site: CallSite(fileID: fileID, line: line))
    }
}

extension Publishers.Fuse {
    /// One subscription through a fuse: the upstream's subscriber and the downstream's
    /// subscription.
    ///
    /// `@unchecked Sendable`: the fuse blows it from any thread, and two guards share the work.
    /// `gate` (``AtomicFuseGate``) holds the status and the deliveries running, so a value passes
    /// with one atomic add and one subtract, no lock. `lock` protects `anchor`, `upstream` and
    /// `pendingDemand`, and serializes the rare paths (subscription, request, completion, cancel,
    /// blow) and every write of `downstream`. (The subscribers arrive through `Subscriber` and
    /// `Publisher` requirements that cannot take them as `sending`, so a `Mutex<State>` does not
    /// compile.)
    ///
    /// A delivery reads `downstream` without the lock, between entering and leaving the gate; it
    /// is taken only by whoever settles the gate, when it is terminal and no delivery runs. A blow
    /// or cancel landing during a delivery is left to the delivering thread, which finishes or
    /// releases the subscriber as it leaves: the subscriber never gets two signals at once.
    /// Downstream and upstream are called, and released, after unlocking. The downstream sits in a
    /// ``Link`` so that the per-value path looks up no generic metadata (Benchmarks/README.md).
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, FuseMember,
        @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// The downstream subscriber, boxed. Called through its methods, which find `Downstream`
        /// in their own `self`: reaching into `subscriber` from `Inner` would look its metadata up.
        private final class Link {
            private let subscriber: Downstream
            init(_ subscriber: Downstream) { self.subscriber = subscriber }

            func receive(subscription: any Subscription) { subscriber.receive(subscription: subscription) }
            func receive(_ input: Input) -> Subscribers.Demand { subscriber.receive(input) }
            func receive(completion: Subscribers.Completion<Failure>) {
                subscriber.receive(completion: completion)
            }
        }

        private let gate = AtomicFuseGate()
        private let lock = Mutex(())
        private let entry: LedgerEntry?
        private var anchor: FuseAnchor?
        /// Unchecked at run time: `gate`, which a dynamic check cannot see, keeps its reads without
        /// the lock apart from its writes.
        @exclusivity(unchecked) private var downstream: Link?
        /// `downstream` unretained, so a value costs no retain and release; valid while
        /// `downstream` holds the link, which outlasts every delivery. Written with it.
        @exclusivity(unchecked) private var unretainedDownstream: Unmanaged<Link>?
        private var upstream: (any Subscription)?
        private var pendingDemand = Subscribers.Demand.none

        init(downstream: Downstream, anchor: FuseAnchor, entry: LedgerEntry?) {
            let link = Link(downstream)
            self.downstream = link
            unretainedDownstream = Unmanaged.passUnretained(link)
            self.anchor = anchor
            self.entry = entry
        }

        /// Hands the subscription downstream (the gate starts with that delivery), then
        /// subscribes upstream.
        func start(upstream publisher: Upstream) {
            let downstream = lock.withLock { _ in self.downstream }
            downstream?.receive(subscription: self)
            leave()
            let subscribe = lock.withLock { _ in gate.current.status == .awaitingUpstream }
            if subscribe { publisher.subscribe(self) }
        }

        // MARK: Subscriber (upstream side)

        func receive(subscription: any Subscription) {
            let demand = lock.withLock { _ -> Subscribers.Demand? in
                guard gate.subscribe() else { return nil }
                upstream = subscription
                let demand = pendingDemand
                pendingDemand = .none
                return demand
            }
            guard let demand else {
                subscription.cancel()
                return
            }
            if demand > 0 { subscription.request(demand) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            // Counted: nothing takes `downstream` until this delivery leaves.
            guard gate.enter(), let link = unretainedDownstream else {
                leave()
                return .none
            }
            // Combine calls `receive(_:)` serially, so the count needs no locked increment.
            entry?.deliveredSerially()
            let demand = link._withUnsafeGuaranteedRef { $0.receive(input) }
            return leave() ? .none : demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let taken = lock.withLock { _ -> (Link?, FuseAnchor?) in
                guard let idle = gate.terminate(leaving: .release) else { return (nil, nil) }
                upstream = nil
                // A delivery running (a re-entrant completion) releases the subscriber when it
                // leaves; the completion is delivered now all the same.
                return (idle ? takeDownstream() : self.downstream, takeAnchor())
            }
            guard let downstream = taken.0 else { return }
            taken.1?.core.unregister(self)
            entry?.end(.ended)
            downstream.receive(completion: completion)
        }

        // MARK: Subscription (downstream side)

        func request(_ demand: Subscribers.Demand) {
            let upstream = lock.withLock { _ -> (any Subscription)? in
                switch gate.current.status {
                case .awaitingUpstream:
                    pendingDemand += demand
                    return nil
                case .subscribed:
                    return self.upstream
                case .terminal:
                    return nil
                }
            }
            upstream?.request(demand)
        }

        func cancel() {
            let taken = lock.withLock { _ -> ((any Subscription)?, Link?, FuseAnchor?)? in
                guard let idle = gate.terminate(leaving: .release) else { return nil }
                let upstream = self.upstream
                self.upstream = nil
                return (upstream, idle ? takeDownstream() : nil, takeAnchor())
            }
            guard let taken else { return }
            taken.2?.core.unregister(self)
            entry?.end(.cancelled)
            taken.0?.cancel()
            // The subscriber and the anchor are released here, after unlocking (the subscriber
            // by the delivery running, if one is).
        }

        // MARK: FuseMember

        func blow() {
            let taken = lock.withLock { _ -> ((any Subscription)?, Link?, FuseAnchor?)? in
                guard let idle = gate.terminate(leaving: .finish) else { return nil }
                let upstream = self.upstream
                self.upstream = nil
                guard idle else { return (upstream, nil, nil) }
                return (upstream, takeDownstream(), takeAnchor())
            }
            guard let taken else { return }
            entry?.end(.cancelled)
            taken.0?.cancel()
            taken.1?.receive(completion: .finished)
        }

        // MARK: Gate

        /// Ends a delivery; settles the subscription if it turned terminal meanwhile and this was
        /// the last delivery. True if it finished the subscriber.
        @discardableResult
        private func leave() -> Bool {
            let settle = gate.leave()
            return settle == .none ? false : settleNow(settle)
        }

        /// The rare half of ``leave()``, kept out of line so that its metadata (such as
        /// `Subscribers.Completion<Failure>`'s) is not looked up on the per-value path.
        @inline(never)
        private func settleNow(_ settle: FuseGate.Pending) -> Bool {
            gate.settle()
            // Taken once: a value counted before the line above may settle too, and find nothing.
            let taken = lock.withLock { _ -> (Link?, FuseAnchor?) in (takeDownstream(), takeAnchor()) }
            guard settle == .finish, let downstream = taken.0 else { return false }
            downstream.receive(completion: .finished)
            return true
        }

        // MARK: Helpers (call under the lock)

        private func takeDownstream() -> Link? {
            let downstream = self.downstream
            self.downstream = nil
            unretainedDownstream = nil
            return downstream
        }

        private func takeAnchor() -> FuseAnchor? {
            let anchor = self.anchor
            self.anchor = nil
            return anchor
        }
    }
}
