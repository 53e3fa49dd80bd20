extension AnyCancellable {
    /// Binds this subscription to `lifetime`: cancelled when the lifetime ends (at once if it
    /// has), a `subscription` entry in its ledger attributed to its owner, made at this call site.
    ///
    /// After handing it over, end the lifetime (or ``Lifetime/remove(_:)`` the token), not the
    /// cancellable itself.
    ///
    /// ```swift
    /// events.sink { print($0) }.store(boundTo: lifetime)
    /// ```
    ///
    /// - Returns: The token that takes the subscription out again. Thread-safe.
    @discardableResult
    public func store(boundTo lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line)
        -> Lifetime.Token
    {
        lifetime.bind(.cancellable(self), kind: .subscription, site: CallSite(fileID: fileID, line: line))
            ?? .ended
    }
}
