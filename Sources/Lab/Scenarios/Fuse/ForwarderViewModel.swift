import Tether

/// The fuse package's `Forwarder`, owned by the Fuse sheet: it maps the long-lived repository's
/// orientations through a stateful `map` and hands the result to the long-lived consumer.
///
/// Bound, the mapping captures the forwarder `unowned` behind `fuse(heldBy: self, on:
/// \.cancellables)`: when the forwarder deinitializes the fuse blows, the upstream is cancelled
/// (so the `unowned` capture is never used after) and the consumer sees `.finished`. Leaky, the
/// mapping captures it `weak` and there is no fuse: the consumer's subscription outlives the
/// forwarder and keeps receiving `nil` — a leak named by the hand-over below, each `nil` a
/// zombie delivery.
@MainActor
final class ForwarderViewModel {
    let lifetime: Lifetime
    let mode: Mode
    /// The number the consumer gave this forwarder's subscription.
    private(set) var subscriptionNumber = 0
    /// How many orientations the stateful mapping has mapped.
    private(set) var mapped = 0
    private(set) var lastMapped: String?
    /// The long-lived consumer the forwarder hands its publisher to.
    let consumer: OrientationConsumer
    private let repository: OrientationRepository
    private var cancellables = Set<AnyCancellable>()
    private var fused: Publishers.Fuse<Publishers.Map<AnyPublisher<Orientation, Never>, String?>>?

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        self.mode = mode
        lifetime = Lifetime(boundTo: parent, ledger: environment.ledger)
        repository = environment.resident(OrientationRepository.resident)
        consumer = environment.resident(OrientationConsumer.resident)
        lifetime.track(self)
        // The hand-over: the consumer's subscription is attributed to this view model.
        subscriptionNumber = consumer.subscribe(to: publisher(), attributedTo: lifetime)
    }

    /// Whether the fuse has blown (bound mode; nil when there is no fuse).
    var isFuseBlown: Bool? { fused?.isBlown }

    /// The stateful mapping: numbers each orientation it sees.
    private func map(_ orientation: Orientation) -> String? {
        mapped += 1
        lastMapped = "\(orientation.rawValue) (mapped #\(mapped))"
        return lastMapped
    }

    /// The forwarder's publisher, the way each mode writes it.
    private func publisher() -> AnyPublisher<String?, Never> {
        switch mode {
        case .bound:
            let fused = repository.orientations
                .map { [unowned self] in self.map($0) }
                .fuse(heldBy: self, on: \.cancellables)
            self.fused = fused
            return fused.eraseToAnyPublisher()
        case .leaky:
            return repository.orientations
                .map { [weak self] in self?.map($0) }
                .eraseToAnyPublisher()
        }
    }
}
