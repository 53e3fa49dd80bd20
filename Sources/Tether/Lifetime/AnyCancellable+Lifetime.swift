extension AnyCancellable {
    /// Binds this subscription to `lifetime`: cancelled when the lifetime ends, recorded in its
    /// ledger with this call site.
    public func store(in lifetime: Lifetime, fileID: StaticString = #fileID, line: UInt = #line) {
        lifetime.add(self, fileID: fileID, line: line)
    }
}
