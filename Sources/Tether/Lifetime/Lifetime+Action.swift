extension Lifetime {
    /// What a lifetime runs when it ends.
    enum Action {
        case call(@Sendable () -> Void)
        /// An `AnyCancellable` handed over: taken out of the state with its item, once, and
        /// cancelled after unlocking.
        case cancellable(AnyCancellable)

        func run() {
            switch self {
            case .call(let action): action()
            case .cancellable(let cancellable): cancellable.cancel()
            }
        }
    }
}
