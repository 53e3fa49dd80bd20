/// What ties a registration listed elsewhere — a ``LiveData`` observer, an `@Observed`
/// observation, the sink of `sink(boundTo:)` — to the lifetime whose end removes it.
///
/// Binding takes three steps, in this order, so that an end that lands at any point removes the
/// registration exactly once:
/// 1. the owner of the list lists the registration (an end that lands next finds it there);
/// 2. ``bind(_:entry:removal:store:)`` hands the lifetime the action that removes it — an ended
///    lifetime runs it at once, and binding stops there;
/// 3. `store` keeps the link under the list's lock, unless the registration left meanwhile (it
///    was removed, or its observer died): then the action is taken back out of the lifetime.
///
/// A registration that leaves some other way ``cut()``s its link, so the lifetime does not keep
/// its removal action until it ends.
struct LifetimeLink: Sendable {
    /// Held weakly: a registration must not keep its lifetime, and the lifetime's owner, alive.
    private weak var lifetime: Lifetime?
    private let token: Lifetime.Token

    /// Binds a listed registration to `lifetime`: `removal` runs when the lifetime ends, which ends
    /// `entry` (as cancelled).
    ///
    /// - Parameters:
    ///   - store: Called once the lifetime holds `removal`, with the link to keep; under the list's
    ///     lock, it says whether the registration is still listed.
    /// - Returns: Whether the registration stayed bound: false when the lifetime had ended
    ///   (`removal` has run) or the registration left before `store`.
    static func bind(
        _ lifetime: Lifetime, entry: LedgerEntry?, removal: @escaping @Sendable () -> Void,
        store: (LifetimeLink) -> Bool
    ) -> Bool {
        guard let token = lifetime.insert(.call(removal), entry: entry) else { return false }
        let link = LifetimeLink(lifetime: lifetime, token: token)
        guard store(link) else {
            link.cut()
            return false
        }
        return true
    }

    /// Takes the removal action back out of the lifetime: the registration left some other way.
    /// The entry, if the lifetime still held it, ends — once the lifetime is let go of
    /// (``Lifetime/takeOut(_:)``).
    func cut() {
        takeOut()?.entry?.end(.ended)
    }

    private func takeOut() -> Lifetime.Item? { lifetime?.takeOut(token) }
}
