import Synchronization

extension Publishers {
    /// A publisher that cuts every subscription through it when its holder deallocates.
    ///
    /// Made by ``Combine/Publisher/fuse(heldBy:on:fileID:line:)-(_,ReferenceWritableKeyPath<Holder,Set<AnyCancellable>>,_,_)``. When the fuse *blows* — its holder
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
    /// `@unchecked Sendable` because the fuse blows it from any thread: `lock` protects every
    /// `var` below. Downstream and upstream are called, and released, only after unlocking. A
    /// blow that lands while a signal is being delivered downstream (`emitting > 0`) is left to
    /// the delivering thread, which finishes the subscriber when it is done: the subscriber never
    /// receives two signals at once.
    ///
    /// The per-value path takes nothing generic out of the lock: the downstream sits in a
    /// ``Link`` (a class, so an optional of it has a fixed layout) and the end of a delivery
    /// returns a `Bool`. An optional or a tuple of `Downstream` crossing `withLock` would make the
    /// unspecialized code look up its generic metadata on every value.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, FuseMember,
        @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum Status {
            case awaitingUpstream
            case subscribed
            case terminal
        }

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

        private let lock = Mutex(())
        private let entry: LedgerEntry?
        private var anchor: FuseAnchor?
        private var downstream: Link?
        private var upstream: (any Subscription)?
        private var status = Status.awaitingUpstream
        private var pendingDemand = Subscribers.Demand.none
        /// Signals being delivered downstream now; starts at 1 for the subscription hand-over.
        private var emitting = 1
        private var finishPending = false

        init(downstream: Downstream, anchor: FuseAnchor, entry: LedgerEntry?) {
            self.downstream = Link(downstream)
            self.anchor = anchor
            self.entry = entry
        }

        /// Hands the subscription downstream, then subscribes upstream.
        func start(upstream publisher: Upstream) {
            let downstream = lock.withLock { _ in self.downstream }
            downstream?.receive(subscription: self)
            finishIfPending()
            let subscribe = lock.withLock { _ in status == .awaitingUpstream }
            if subscribe { publisher.subscribe(self) }
        }

        // MARK: Subscriber (upstream side)

        func receive(subscription: any Subscription) {
            let demand = lock.withLock { _ -> Subscribers.Demand? in
                guard status == .awaitingUpstream else { return nil }
                status = .subscribed
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
            // Written inside the lock rather than returned from it: a generic result of
            // `withLock` (here `Link?`) has its metadata looked up on every call.
            var ready: Link?
            lock.withLock { _ in
                guard status == .subscribed else { return }
                ready = self.downstream
                emitting += 1
            }
            guard let downstream = ready else { return .none }
            entry?.delivered()
            let demand = downstream.receive(input)
            return finishIfPending() ? .none : demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let taken = lock.withLock { _ -> (Link?, FuseAnchor?) in
                guard status != .terminal else { return (nil, nil) }
                status = .terminal
                upstream = nil
                return (takeDownstream(), takeAnchor())
            }
            guard let downstream = taken.0 else { return }
            taken.1?.core.unregister(self)
            entry?.end(.ended)
            downstream.receive(completion: completion)
        }

        // MARK: Subscription (downstream side)

        func request(_ demand: Subscribers.Demand) {
            let upstream = lock.withLock { _ -> (any Subscription)? in
                switch status {
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
                guard status != .terminal else { return nil }
                status = .terminal
                finishPending = false
                let upstream = self.upstream
                self.upstream = nil
                return (upstream, takeDownstream(), takeAnchor())
            }
            guard let taken else { return }
            taken.2?.core.unregister(self)
            entry?.end(.cancelled)
            taken.0?.cancel()
            // The subscriber and the anchor are released here, after unlocking.
        }

        // MARK: FuseMember

        func blow() {
            let taken = lock.withLock { _ -> ((any Subscription)?, Link?, FuseAnchor?)? in
                guard status != .terminal else { return nil }
                status = .terminal
                let upstream = self.upstream
                self.upstream = nil
                if emitting > 0 {
                    finishPending = true
                    return (upstream, nil, nil)
                }
                return (upstream, takeDownstream(), takeAnchor())
            }
            guard let taken else { return }
            entry?.end(.cancelled)
            taken.0?.cancel()
            taken.1?.receive(completion: .finished)
        }

        // MARK: Helpers (call under the lock)

        private func takeDownstream() -> Link? {
            let downstream = self.downstream
            self.downstream = nil
            return downstream
        }

        private func takeAnchor() -> FuseAnchor? {
            let anchor = self.anchor
            self.anchor = nil
            return anchor
        }

        /// Ends a delivery; finishes the subscriber if the fuse blew meanwhile. True if it did.
        ///
        /// The common case returns a `Bool` from the lock; only a pending finish takes the
        /// downstream and the anchor out, in a second, rare step.
        @discardableResult
        private func finishIfPending() -> Bool {
            let pending = lock.withLock { _ -> Bool in
                emitting -= 1
                return emitting == 0 && finishPending
            }
            guard pending else { return false }
            return finishPendingNow()
        }

        /// The rare half of ``finishIfPending()``, kept out of line so that its metadata (such as
        /// `Subscribers.Completion<Failure>`'s) is not looked up on the per-value path.
        @inline(never)
        private func finishPendingNow() -> Bool {
            let taken = lock.withLock { _ -> (Link?, FuseAnchor?)? in
                // Another delivery may have started and taken the finish over meanwhile.
                guard emitting == 0, finishPending else { return nil }
                finishPending = false
                return (takeDownstream(), takeAnchor())
            }
            guard let taken else { return false }
            taken.0?.receive(completion: .finished)
            return true
        }
    }
}
