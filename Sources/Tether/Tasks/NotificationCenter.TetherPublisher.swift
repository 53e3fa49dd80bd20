import Foundation
import Synchronization

extension NotificationCenter {
    /// A publisher of the notifications a center posts under one name.
    ///
    /// Made by ``NotificationCenter/tetherPublisher(for:object:)``. Each subscription registers an
    /// observer; values are delivered synchronously, on the posting thread, while there is demand
    /// (notifications posted without demand are dropped).
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
    ///   Thread-safe; values arrive on the posting thread.
    public func tetherPublisher(for name: Notification.Name, object: AnyObject? = nil) -> TetherPublisher {
        TetherPublisher(center: self, name: name, object: object)
    }
}

extension NotificationCenter.TetherPublisher {
    /// One subscription: an observer feeding one subscriber.
    ///
    /// `@unchecked Sendable`: the center's observer block calls it from any thread, and `lock`
    /// protects `downstream`, `demand`, `observer` and `center`. (The subscriber arrives through
    /// `Publisher.receive(subscriber:)`, which cannot take it as `sending`, so a `Mutex<State>`
    /// does not compile.) The subscriber is called, and the observer removed, after unlocking.
    private final class Inner<Downstream: Subscriber>: Subscription, NotificationReceiver, @unchecked Sendable
    where Downstream.Input == Notification, Downstream.Failure == Never {
        private let lock = Mutex(())
        private var downstream: Downstream?
        private var demand = Subscribers.Demand.none
        private var observer: (any NSObjectProtocol)?
        private var center: NotificationCenter?

        init(downstream: Downstream) { self.downstream = downstream }

        func register(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
            // Erased so the @Sendable block does not capture the subscriber's (non-Sendable) type.
            let receiver: any NotificationReceiver = self
            let observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
                receiver.receive(notification)
            }
            let cancelled = lock.withLock { _ -> Bool in
                guard downstream != nil else { return true }
                self.observer = observer
                self.center = center
                return false
            }
            if cancelled { center.removeObserver(observer) }
        }

        func receive(_ notification: Notification) {
            let downstream = lock.withLock { _ -> Downstream? in
                let ready = demand > 0 ? self.downstream : nil
                if ready != nil { demand -= 1 }
                return ready
            }
            guard let downstream else { return }
            let more = downstream.receive(notification)
            guard more > 0 else { return }
            lock.withLock { _ in
                if self.downstream != nil { demand += more }
            }
        }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock { _ in
                if downstream != nil { self.demand += demand }
            }
        }

        func cancel() {
            let taken = lock.withLock { _ -> (Downstream?, (any NSObjectProtocol)?, NotificationCenter?) in
                defer {
                    downstream = nil
                    observer = nil
                    center = nil
                }
                return (downstream, observer, center)
            }
            if let observer = taken.1 { taken.2?.removeObserver(observer) }
            // The subscriber is released here, after unlocking: its deinit may run arbitrary code.
            _ = taken.0
        }
    }
}

/// What a notification observer block calls.
private protocol NotificationReceiver: AnyObject, Sendable {
    func receive(_ notification: Notification)
}
