/// A bag of bindings that all end when the bag is disposed or deinitializes — the owner-held
/// form of ``Lifetime``.
///
/// Keep one as a stored property of the object whose lifetime the bindings should share; when
/// the object deinitializes, so does the bag, and every subscription, task and observer bound
/// to it is cancelled (in reverse order of binding).
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
/// Thread-safe: binding, disposing and deinitializing may race from any threads. Binding to a
/// disposed bag cancels at once.
///
/// A bag *is* a ``Lifetime`` (one object per owner, no wrapper): everything labelled `boundTo:`
/// takes one. This name and the members below give it the vocabulary of seed 001 and RxSwift.
public typealias DisposeBag = Lifetime

extension Lifetime {
    /// Ends everything in the bag now. The bag stays disposed; later bindings cancel at once.
    public func dispose() { end() }

    /// Whether the bag has been disposed.
    public var isDisposed: Bool { isEnded }
}
