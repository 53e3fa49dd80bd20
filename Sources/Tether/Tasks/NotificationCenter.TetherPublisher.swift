import Foundation

extension NotificationCenter {
    /// A publisher of the notifications a center posts under one name.
    ///
    /// Made by ``NotificationCenter/tetherPublisher(for:object:)``. Each subscription registers an
    /// observer; values are delivered one at a time, while there is demand (notifications posted
    /// without demand are dropped): synchronously on the posting thread, or — posted while another
    /// is being delivered — on that one's thread, right after it.
    ///
    /// Lifetime: a subscription's observer is removed when it is cancelled (bind it to a
    /// ``Lifetime`` to have that happen when the owner ends). Thread-safe.
    public struct TetherPublisher: Publisher {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The center observed.
        public let center: NotificationCenter
        /// The name observed.
        public let name: Notification.Name
        /// The sender observed, or nil for any sender.
        public let object: AnyObject?

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let inner = Inner(downstream: subscriber)
            inner.register(center: center, name: name, object: object)
            subscriber.receive(subscription: inner)
        }
    }

    /// The notifications posted under `name` (from `object`, if given), as a publisher — the
    /// `publisher(for:)` that OpenCombine does not provide, under a name that never collides
    /// with Apple's.
    ///
    /// ```swift
    /// center.tetherPublisher(for: .orientationDidChange)
    ///     .sink(boundTo: lifetime) { _ in print("rotated") }
    /// ```
    ///
    /// - Returns: A publisher whose subscriptions remove their observer when cancelled.
    ///   Thread-safe; values arrive on the posting thread, or on the thread delivering the one
    ///   before.
    public func tetherPublisher(for name: Notification.Name, object: AnyObject? = nil) -> TetherPublisher {
        TetherPublisher(center: self, name: name, object: object)
    }
}

extension NotificationCenter.TetherPublisher {
    /// One subscription: an observer feeding one subscriber.
    ///
    /// Thread-safe: the center's observer block calls it from any thread; what changes is in one
    /// ``LockedBox``, and the subscriber is called, and the observer removed, after unlocking.
    /// Posts reach the subscriber one at a time, as Combine requires, as ``Lifecycle`` tells its
    /// moves: a post made while another is being delivered (from another thread, or from the
    /// subscriber's own `receive(_:)`) waits in `waiting`, and the delivering thread hands it on.
    private final class Inner<Downstream: Subscriber>: Subscription, NotificationReceiver
    where Downstream.Input == Notification, Downstream.Failure == Never {
        private struct State {
            /// Nil once cancelled.
            var downstream: Downstream?
            var demand = Subscribers.Demand.none
            var observer: (any NSObjectProtocol)?
            var center: NotificationCenter?
            /// Posts not yet handed on, oldest first.
            var waiting: [Notification] = []
            /// Whether a thread is handing posts on.
            var delivering = false
        }

        private let state: LockedBox<State>

        init(downstream: Downstream) { state = LockedBox(State(downstream: downstream)) }

        func register(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
            // Erased so the @Sendable block does not capture the subscriber's (non-Sendable) type.
            let receiver: any NotificationReceiver = self
            let observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
                receiver.receive(notification)
            }
            let cancelled = state.withLock { state -> Bool in
                guard state.downstream != nil else { return true }
                state.observer = observer
                state.center = center
                return false
            }
            if cancelled { center.removeObserver(observer) }
        }

        func receive(_ notification: Notification) {
            let delivers = state.withLock { state -> Bool in
                guard state.downstream != nil else { return false }
                state.waiting.append(notification)
                guard !state.delivering else { return false }
                state.delivering = true
                return true
            }
            guard delivers else { return }
            while let (downstream, next) = nextDelivery() {
                let more = downstream.receive(next)
                guard more > 0 else { continue }
                state.withLock { state in
                    if state.downstream != nil { state.demand += more }
                }
            }
        }

        /// The next post to hand on and whom to; nil, and delivering over, when none is left. A
        /// post that finds no demand is dropped.
        private func nextDelivery() -> (Downstream, Notification)? {
            state.withLock { state in
                guard !state.waiting.isEmpty, state.demand > 0, let downstream = state.downstream else {
                    state.waiting = []
                    state.delivering = false
                    return nil
                }
                state.demand -= 1
                return (downstream, state.waiting.removeFirst())
            }
        }

        func request(_ demand: Subscribers.Demand) {
            state.withLock { state in
                if state.downstream != nil { state.demand += demand }
            }
        }

        func cancel() {
            let taken = state.withLock { state -> State in
                defer { state = State() }
                return state
            }
            if let observer = taken.observer { taken.center?.removeObserver(observer) }
            // The subscriber is released here, after unlocking: its deinit may run arbitrary code.
        }
    }
}

/// What a notification observer block calls.
private protocol NotificationReceiver: AnyObject, Sendable {
    func receive(_ notification: Notification)
}
