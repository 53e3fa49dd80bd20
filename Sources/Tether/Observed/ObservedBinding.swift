/// The weak link between two bound ``ObservedProperty`` storages, and its ledger entry.
///
/// Each side stores the link; the link holds both sides weakly, so a binding keeps neither alive.
/// Immutable, hence `Sendable`.
@usableFromInline
final class ObservedBinding<Value>: Sendable {
    weak let first: ObservedStorage<Value>?
    weak let second: ObservedStorage<Value>?
    let entry: LedgerEntry?

    init(_ first: ObservedStorage<Value>, _ second: ObservedStorage<Value>, entry: LedgerEntry?) {
        self.first = first
        self.second = second
        self.entry = entry
    }

    /// Counts a write that crossed the binding (stored on the far side) as its delivery.
    @usableFromInline
    func crossed() {
        entry?.delivered()
    }

    /// The side that is not `side`, if it is still alive. Works from `side`'s deinit too, where
    /// the weak reference to `side` already reads nil.
    func partner(of side: ObservedStorage<Value>) -> ObservedStorage<Value>? {
        if let first, first !== side { return first }
        if let second, second !== side { return second }
        return nil
    }
}
