/// A bag of bindings that all end when the bag is disposed or deinitializes — the owner-held
/// form of ``Lifetime``.
///
/// Keep one as a stored property of the object whose lifetime the bindings should share; when
/// the object deinitializes, so does the bag, and every subscription, task and observer stored
/// in it is cancelled (in reverse order of storing).
///
/// ```swift
/// final class Panel {
///     let bag = DisposeBag()
///     init(orientation: LiveData<Orientation>) {
///         bag.track(self)
///         orientation.add(observer: self, disposeBag: bag) { print($0) }
///     }
/// }
/// ```
///
/// Thread-safe: storing, disposing and deinitializing may race from any threads. Storing into a
/// disposed bag cancels at once.
///
/// A bag *is* a ``Lifetime`` (one object per owner, no wrapper); this name and the members below
/// give it the vocabulary of seed 001 and RxSwift.
public typealias DisposeBag = Lifetime

extension Lifetime {
    /// The lifetime itself: a bag is the lifetime it ends.
    public var lifetime: Lifetime { self }

    /// Creates an empty bag whose end ends with `parent`'s.
    public convenience init(parent: DisposeBag, ledger: Ledger = .current) {
        self.init(ledger: ledger, parent: Optional(parent))
    }

    /// Stores a subscription in the bag.
    public func insert(_ cancellable: AnyCancellable, fileID: StaticString = #fileID, line: UInt = #line) {
        add(cancellable, fileID: fileID, line: line)
    }

    /// Adds work to run when the bag ends.
    public func onDispose(_ action: @escaping @Sendable () -> Void) {
        add(action)
    }

    /// Ends everything in the bag now. The bag stays disposed; later stores cancel at once.
    public func dispose() { end() }

    /// Whether the bag has been disposed.
    public var isDisposed: Bool { isEnded }
}
