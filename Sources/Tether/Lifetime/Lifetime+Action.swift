extension Lifetime {
    /// What a lifetime runs when it ends.
    enum Action: Sendable {
        case call(@Sendable () -> Void)
        /// An `AnyCancellable` handed over (not Sendable under OpenCombine, hence the box): taken
        /// out once, cancelled after unlocking.
        case cancellable(LockedBox<AnyCancellable?>)

        func run() {
            switch self {
            case .call(let action): action()
            case .cancellable(let box): box.withLock { $0.take() }?.cancel()
            }
        }
    }
}
