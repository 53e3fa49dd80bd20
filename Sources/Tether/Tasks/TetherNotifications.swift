import Foundation
import Synchronization

/// The notifications a `NotificationCenter` posts under one name, as an async sequence — the
/// `notifications(named:)` that Linux's Foundation lacks, with a lifetime you can rely on.
///
/// Make one with `NotificationCenter.tetherNotifications(named:object:)` or
/// `NotificationCenter.tetherNotifications(named:object:transform:)`. `Notification`
/// is not `Sendable` (its `object` and `userInfo` are `Any`), so the sequence does not hand
/// notifications across tasks: it hands over a `Sendable` projection computed on the posting
/// thread — the name, or what your `transform` returns.
///
/// ```swift
/// Task(boundTo: lifetime) {
///     for await _ in NotificationCenter.default.tetherNotifications(named: .orientationDidChange) {
///         print("rotated")
///     }
/// }
/// ```
///
/// Lifetime: the observer is registered when the sequence is made, and removed when the
/// iterating task is cancelled, when the loop ends (its iterator is released), or when the
/// sequence is released without being iterated — nothing stays registered, nothing stays
/// buffered. Notifications posted between making the sequence and iterating it are buffered.
/// Iterate it once. Each element handed to a task started by ``_Concurrency/Task/init(boundTo:priority:fileID:line:operation:)``
/// or ``_Concurrency/Task/attributed(to:priority:fileID:line:operation:)`` counts as a delivery on its ledger entry.
///
/// Thread-safe: notifications may be posted from any thread.
public struct TetherNotifications<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let stream: AsyncStream<Element>
    private let registration: NotificationRegistration<Element>

    init(
        center: NotificationCenter, name: Notification.Name, object: AnyObject?,
        transform: @escaping @Sendable (Notification) -> Element
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        // The sender is matched by identity here rather than handed to the center: `object` is not
        // Sendable, and the observer token must be free to cross into the registration's lock.
        let sender = object.map(ObjectIdentifier.init)
        let observer = center.addObserver(forName: name, object: nil, queue: nil) { notification in
            if let sender {
                guard let posted = notification.object, ObjectIdentifier(posted as AnyObject) == sender else {
                    return
                }
            }
            continuation.yield(transform(notification))
        }
        let registration = NotificationRegistration(
            center: center, observer: observer, continuation: continuation)
        // Weak: the center holds the continuation, which holds this handler; a strong reference
        // would keep the registration — and the observer — alive for as long as the center.
        continuation.onTermination = { [weak registration] _ in registration?.cancel(finishing: false) }
        self.stream = stream
        self.registration = registration
    }

    public func makeAsyncIterator() -> Iterator {
        // Iterated in a task Tether started, it counts what that task receives: from now.
        LedgerEntry.current?.countsFromNow()
        return Iterator(base: stream.makeAsyncIterator(), end: IterationEnd(registration: registration))
    }

    /// Iterates a ``TetherNotifications``; releasing it removes the observer.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: AsyncStream<Element>.Iterator
        private let end: IterationEnd<Element>

        fileprivate init(base: AsyncStream<Element>.Iterator, end: IterationEnd<Element>) {
            self.base = base
            self.end = end
        }

        public mutating func next() async -> Element? {
            // A cancelled loop gets nothing more: not even what was buffered before its end.
            guard let element = await base.next(), !Task.isCancelled else { return nil }
            LedgerEntry.current?.delivered()
            return element
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard let element = await base.next(isolation: actor), !Task.isCancelled else { return nil }
            LedgerEntry.current?.delivered()
            return element
        }
    }
}

extension NotificationCenter {
    /// The notifications posted under `name` (from `object`, if given), as an async sequence of
    /// their name.
    ///
    /// Named so it never collides with Apple's `notifications(named:)`. Use
    /// ``tetherNotifications(named:object:transform:)`` to carry more of each notification.
    ///
    /// ```swift
    /// for await _ in center.tetherNotifications(named: .orientationDidChange) { redraw() }
    /// ```
    ///
    /// - Returns: A sequence whose observer is removed when the iterating task is cancelled or the
    ///   loop ends. Thread-safe.
    public func tetherNotifications(named name: Notification.Name, object: AnyObject? = nil)
        -> TetherNotifications<Notification.Name>
    {
        TetherNotifications(center: self, name: name, object: object) { $0.name }
    }

    /// The notifications posted under `name`, each projected to a `Sendable` value by `transform`
    /// on the posting thread, as an async sequence.
    ///
    /// ```swift
    /// let orientations = center.tetherNotifications(named: .orientationDidChange) { note in
    ///     note.userInfo?["orientation"] as? String ?? "unknown"
    /// }
    /// for await orientation in orientations { print(orientation) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The notification name to observe.
    ///   - object: The sender to observe, or nil for any sender.
    ///   - transform: Runs synchronously on the thread that posts, before `post` returns.
    /// - Returns: A sequence whose observer is removed when the iterating task is cancelled or the
    ///   loop ends. Thread-safe.
    public func tetherNotifications<Element: Sendable>(
        named name: Notification.Name, object: AnyObject? = nil,
        transform: @escaping @Sendable (Notification) -> Element
    ) -> TetherNotifications<Element> {
        TetherNotifications(center: self, name: name, object: object, transform: transform)
    }
}

/// A notification observer and the stream it feeds; removes the one and finishes the other once.
final class NotificationRegistration<Element: Sendable>: Sendable {
    private let center: NotificationCenter
    private let continuation: AsyncStream<Element>.Continuation
    private let observer: Mutex<(any NSObjectProtocol)?>

    init(
        center: NotificationCenter, observer: sending any NSObjectProtocol,
        continuation: AsyncStream<Element>.Continuation
    ) {
        self.center = center
        self.continuation = continuation
        self.observer = Mutex(observer)
    }

    deinit { cancel(finishing: true) }

    func cancel(finishing: Bool) {
        let observer = observer.withLock { $0.take() }
        guard let observer else { return }
        center.removeObserver(observer)
        if finishing { continuation.finish() }
    }
}

/// Ends the registration when the iterator that holds it is released: the loop is over.
private final class IterationEnd<Element: Sendable>: Sendable {
    let registration: NotificationRegistration<Element>

    init(registration: NotificationRegistration<Element>) { self.registration = registration }

    deinit { registration.cancel(finishing: true) }
}
