/// A property whose writes can be observed — before, after or both — and bound two ways to
/// another `@Observed` property.
///
/// Named `Observed`, not `Observable`, so it never collides with Swift's `@Observable` macro.
/// Use the projected value, ``ObservedProperty`` (`$x`), to observe and bind:
///
/// ```swift
/// final class Player {
///     @Observed var position = 0
/// }
/// let player = Player()
/// let lifetime = Lifetime()
/// player.$position.observe(.did, boundTo: lifetime) { new, old in print(old!, "→", new) }
/// player.position = 3     // prints "0 → 3"
/// lifetime.end()          // the observation is removed
/// player.position = 4     // prints nothing
/// ```
///
/// Lifetime: the storage is a reference shared by copies of the wrapper; it lives as long as the
/// declaring object (or whoever holds `$x`). Thread-safe: reads and writes may come from any
/// thread; observers run synchronously on the writing thread.
@propertyWrapper
public struct Observed<Value> {
    /// `$x`: observe, bind, remove and cleanse.
    public let projectedValue: ObservedProperty<Value>

    /// Creates the property with its initial value: `@Observed var x = 1`.
    public init(wrappedValue: Value) {
        projectedValue = ObservedProperty(wrappedValue)
    }

    /// The value. Writing it notifies the observers and the bound property.
    @inlinable
    public var wrappedValue: Value {
        get { projectedValue.value }
        nonmutating set { projectedValue.value = newValue }
    }
}

extension Observed: Sendable where Value: Sendable {}
