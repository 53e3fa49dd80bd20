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
        private let core: FuseCore
        private let site: CallSite

        init(upstream: Upstream, core: FuseCore, site: CallSite) {
            self.upstream = upstream
            self.core = core
            self.site = site
        }

        /// Whether the fuse has blown.
        public var isBlown: Bool { core.isBlown }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let entry = Ledger.current.open(.subscription, owner: nil, site: site, bound: false)
            let inner = Inner<S>(core: core)
            let relay = Relay(inner: inner, downstream: subscriber, entry: entry)
            inner.attach(relay)
            // A fuse that has blown blows this subscription too: the subscriber gets it, then
            // `.finished`, and upstream is not subscribed.
            if !core.register(inner) { inner.blow() }
            relay.start(upstream: upstream)
        }
    }
}

extension Publisher {
    /// Cuts every subscription through the returned publisher when `holder` deallocates.
    ///
    /// The fuse puts a token in `holder`'s set; when the holder deinitializes, the set releases
    /// the token and the fuse blows: each subscription is cancelled upstream and finished
    /// downstream. The set does not grow with fuses made again and again: once nothing uses a
    /// fuse any more (no subscription, publisher released), the next fuse made on the set takes
    /// its token out. A token you cancel yourself blows its fuse and stays, as any cancelled
    /// `AnyCancellable`, until you remove it.
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
    /// Thread-safety: the fuse itself is thread-safe. The holder's set is written only here, on
    /// the calling thread, never when a fuse is released: like any property of the holder, do not
    /// write it from two threads at once. The fuse finishes its subscribers where its token is
    /// released: when the set releases it (`removeAll()`, a new set assigned), their completion
    /// handlers run inside that write of the set, and must not write it again (store into it, make
    /// a fuse on it), which Swift's exclusivity check stops.
    public func fuse<Holder: AnyObject>(
        heldBy holder: Holder, on keyPath: ReferenceWritableKeyPath<Holder, Set<AnyCancellable>>,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Publishers.Fuse<Self> {
        let retired = FuseTokens.retired(in: holder[keyPath: keyPath])
        if !retired.isEmpty {
            holder[keyPath: keyPath] = holder[keyPath: keyPath].filter {
                !retired.contains(ObjectIdentifier($0))
            }
        }
        let core = FuseCore()
        holder[keyPath: keyPath].insert(FuseTokens.make(for: core))
        return Publishers.Fuse(upstream: self, core: core, site: CallSite(fileID: fileID, line: line))
    }

    /// Cuts every subscription through the returned publisher when `holder` deallocates, keeping
    /// the fuse's token in one `AnyCancellable?` slot of the holder.
    ///
    /// The token takes the slot: what was there is released (and so cancelled); a token whose fuse
    /// nobody uses any more stays there, doing nothing, until the next. Otherwise as
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
        let replaced = holder[keyPath: keyPath]
        holder[keyPath: keyPath] = AnyCancellable { [weak core] in core?.blow() }
        replaced?.cancel()
        return Publishers.Fuse(upstream: self, core: core, site: CallSite(fileID: fileID, line: line))
    }
}
