/// The projected value of an ``Observed`` property (`$x`): observe it, bind it, retire
/// observations.
///
/// ```swift
/// final class Settings {
///     @Observed var volume = 5
///     @Observed var sliderValue = 0
/// }
/// let settings = Settings()
/// let log = settings.$volume.observe(.did) { new, old in print(old!, "→", new) }
/// settings.volume = 7                              // prints "5 → 7"
/// settings.$volume.bind(settings.$sliderValue)     // true: they now follow each other
/// settings.sliderValue = 9                         // volume is 9, prints "7 → 9"
/// settings.$volume.remove(log)                     // true
/// ```
///
/// Observers are called synchronously on the writing thread, in the order they were added, on
/// every write — even when the value is unchanged. Writes are atomic; writes from several threads
/// at once are each notified, possibly interleaved.
///
/// Lifetime: the property holds its handlers until they are removed, purged or it deinitializes;
/// it is held by the object that declares it (and by whoever keeps `$x`). Each observation is an
/// `observer` entry and each binding a `binding` entry in `Ledger.current` at creation; they end
/// when removed, purged, unbound or when the property deinitializes.
///
/// Thread-safe; `Sendable` when `Value` is.
public final class ObservedProperty<Value> {
    @usableFromInline let storage: ObservedStorage<Value>

    /// Creates a property holding `value`.
    public init(_ value: Value) {
        storage = ObservedStorage(value)
    }

    /// The value. Setting it notifies observers and the bound property, like writing through the
    /// wrapper.
    @inlinable
    public var value: Value {
        get { storage.state.withLock { $0.value } }
        set { storage.set(newValue) }
    }

    /// Calls `handler` on every write, before, after or both as `kind` says, until the returned
    /// observation is removed or made obsolete, or the property deinitializes.
    ///
    /// The handler gets `(new, old)`: after a write `old` is the value it replaced; before a write
    /// `new` is the value about to be stored and `old` is nil. Obsolete observations are purged.
    ///
    /// ```swift
    /// let observation = $x.observe(.all) { new, old in print(old == nil ? "will" : "did", new) }
    /// ```
    @discardableResult
    public func observe(
        _ kind: ObservationType, fileID: StaticString = #fileID, line: UInt = #line,
        using handler: @escaping @Sendable (Value, Value?) -> Void
    ) -> PropertyObservation {
        let entry = Ledger.current.open(
            .observer, owner: nil, site: CallSite(fileID: fileID, line: line), bound: false)
        return storage.observe(kind, entry: entry, lifetime: nil, handler: handler)
    }

    /// Observes like ``observe(_:fileID:line:using:)`` until `lifetime` ends too; the entry is
    /// owned by the lifetime's owner.
    ///
    /// ```swift
    /// settings.$volume.observe(.did, boundTo: lifetime) { new, _ in print(new) }
    /// ```
    ///
    /// Observing in an ended lifetime registers nothing: the observation returned is removed.
    @discardableResult
    public func observe(
        _ kind: ObservationType, boundTo lifetime: Lifetime, fileID: StaticString = #fileID,
        line: UInt = #line,
        using handler: @escaping @Sendable (Value, Value?) -> Void
    ) -> PropertyObservation {
        let entry = lifetime.ledger.open(
            .observer, owner: lifetime.ownerRecord, site: CallSite(fileID: fileID, line: line), bound: true)
        return storage.observe(kind, entry: entry, lifetime: lifetime, handler: handler)
    }

    /// Removes `observation` and releases its handler. Returns false when it is not (or no
    /// longer) one of this property's observations. Obsolete observations are purged.
    @discardableResult
    public func remove(_ observation: PropertyObservation) -> Bool {
        storage.remove(observation)
    }

    /// Removes every obsolete observation now, releasing their handlers.
    public func cleanse() {
        storage.cleanse()
    }

    /// Binds this property and `other` both ways: a write to either is written to the other,
    /// whose observers fire once; it does not echo back.
    ///
    /// One binding per property: returns false when either is already bound (or `other` is this
    /// property). Binding does not copy a value across; the next write does. The binding holds
    /// neither side: it is severed when either deinitializes. Obsolete observations are purged.
    ///
    /// ```swift
    /// $volume.bind($sliderValue)
    /// ```
    @discardableResult
    public func bind(_ other: ObservedProperty<Value>, fileID: StaticString = #fileID, line: UInt = #line)
        -> Bool
    {
        storage.bind(other.storage, site: CallSite(fileID: fileID, line: line))
    }

    /// Severs the binding between this property and `other`, in either order. Returns false when
    /// they are not bound to each other. Obsolete observations are purged.
    @discardableResult
    public func unbind(_ other: ObservedProperty<Value>) -> Bool {
        storage.unbind(other.storage)
    }
}

extension ObservedProperty: Sendable where Value: Sendable {}
