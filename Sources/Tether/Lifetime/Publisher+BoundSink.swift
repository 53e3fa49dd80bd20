extension Publisher where Failure == Never {
    /// Subscribes and binds the subscription to `lifetime`: cancelled when the lifetime ends.
    ///
    /// The subscription is a `subscription` entry owned by the lifetime's owner, made at this
    /// call site, counting each value it delivers; it ends when the publisher finishes or the
    /// lifetime cancels it. Once the lifetime's end has returned, no value reaches `receiveValue`
    /// — not even one a publisher sends while being subscribed — save one whose delivery had
    /// already begun on another thread, which finishes its call (so a closure that may run on
    /// another thread than the owner's end captures the owner `weak`, not `unowned`). Nothing is
    /// subscribed if the lifetime has already ended.
    ///
    /// ```swift
    /// center.tetherPublisher(for: .orientationDidChange)
    ///     .sink(boundTo: lifetime) { _ in print("rotated") }
    /// ```
    ///
    /// Thread-safe: values arrive on the sending thread; the lifetime may end on any thread.
    public func sink(
        boundTo lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line,
        receiveValue: @escaping (Output) -> Void
    ) {
        guard !lifetime.isEnded else { return }
        let entry = lifetime.ledger.open(
            .subscription, owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line),
            bound: true)
        let sink = BoundSink(entry: entry, receiveValue: receiveValue)
        // Bound before subscribing: a publisher may deliver during `subscribe` (`Just`, a
        // sequence, `CurrentValueSubject`), and a lifetime ended then — by the sink's own closure
        // or on another thread — must cut those values too. An ended lifetime cancels at once.
        guard LifetimeLink.bind(lifetime, entry: entry, removal: { sink.cancel() }, store: sink.keep)
        else { return }
        subscribe(sink)
    }

    /// Subscribes with a subscription *attributed* to `lifetime`'s owner but not bound to it: the
    /// naive stored-elsewhere subscription, made visible.
    ///
    /// The subscription is a `subscription` entry (bound: false) owned by the lifetime's owner,
    /// counting each value it delivers — values delivered after the owner ended count as zombie
    /// deliveries. It is not cancelled when the lifetime ends; its entry ends when the returned
    /// cancellable is cancelled or released, or the publisher finishes.
    ///
    /// ```swift
    /// leaked = values.sink(attributedTo: lifetime) { print($0) }
    /// ```
    ///
    /// - Returns: The subscription's cancellable. Thread-safe as `sink`.
    public func sink(
        attributedTo lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let entry = lifetime.ledger.open(
            .subscription, owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line),
            bound: false)
        let sink = BoundSink(entry: entry, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable {
            sink.cancel()
            entry?.end(.cancelled)
        }
    }

}
