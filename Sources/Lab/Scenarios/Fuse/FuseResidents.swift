import Tether

/// The long-lived repository of the fuse package's example: it provides the orientation
/// publisher and outlives every Fuse sheet (a resident of the lab).
@MainActor
final class OrientationRepository {
    /// The lab's repository, made the first time a Fuse sheet needs it.
    static let resident = Resident(name: "fuse.repository") { OrientationRepository(device: $0.device) }

    /// The device's orientation now and after every rotation.
    let orientations: AnyPublisher<Orientation, Never>

    private init(device: Device) {
        orientations = device.orientationPublisher
    }
}

/// The long-lived consumer of the fuse package's example: it subscribes to whatever publisher a forwarder hands
/// it and keeps the subscription — it outlives every Fuse sheet, so whether the subscription
/// ends with the forwarder is up to the publisher (a fuse), not to the consumer.
///
/// Each subscription is attributed in the ledger to the forwarder's view model that handed the
/// publisher over (`sink(attributedTo:)`): when it outlives that view model it is a leak
/// named by the hand-over's call site, and each value it still receives is a zombie delivery.
/// A resident of the lab: lives as long as the lab; main-actor isolated.
@MainActor
final class OrientationConsumer {
    /// The lab's consumer, made the first time a Fuse sheet needs it.
    static let resident = Resident(name: "fuse.consumer") { OrientationConsumer(environment: $0) }

    /// What happened to one subscription.
    enum State: Equatable {
        case receiving
        /// The publisher finished: the fuse blew.
        case finished
    }

    /// One subscription the consumer holds.
    struct Subscription: Equatable {
        let number: Int
        /// The forwarder's view model that handed the publisher over (`ForwarderViewModel#2`).
        let forwarder: String
        var values = 0
        var nils = 0
        var state = State.receiving
    }

    /// The consumer's log, oldest first.
    private(set) var log = BoundedLog<String>(capacity: 200)
    /// Every subscription so far, oldest first.
    private(set) var subscriptions: [Subscription] = []
    private var cancellables: [Int: AnyCancellable] = [:]
    private weak var environment: LabEnvironment?

    private init(environment: LabEnvironment) {
        self.environment = environment
    }

    /// The subscription numbered `number`.
    func subscription(_ number: Int) -> Subscription? {
        subscriptions.first { $0.number == number }
    }

    /// Subscribes to `publisher` and keeps the subscription, attributed to `lifetime`'s owner and
    /// named by the caller's line. Returns the subscription's number.
    @discardableResult
    func subscribe(
        to publisher: AnyPublisher<String?, Never>, attributedTo lifetime: Lifetime,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Int {
        // Finished subscriptions have ended in the ledger already; let go of their cancellables.
        for finished in subscriptions where finished.state == .finished {
            cancellables[finished.number] = nil
        }
        let number = (subscriptions.last?.number ?? 0) + 1
        subscriptions.append(
            Subscription(number: number, forwarder: lifetime.ownerID?.description ?? "forwarder"))
        cancellables[number] =
            publisher
            .handleEvents(receiveCompletion: { [weak self] _ in self?.finished(number) })
            .sink(attributedTo: lifetime, fileID: fileID, line: line) { [weak self] value in
                self?.received(value, on: number)
            }
        return number
    }

    private func received(_ value: String?, on number: Int) {
        guard let index = subscriptions.firstIndex(where: { $0.number == number }) else { return }
        if let value {
            subscriptions[index].values += 1
            append("#\(number) \(value)")
        } else {
            subscriptions[index].nils += 1
            append("#\(number) nil — its forwarder is gone")
        }
    }

    private func finished(_ number: Int) {
        guard let index = subscriptions.firstIndex(where: { $0.number == number }) else { return }
        subscriptions[index].state = .finished
        append("#\(number) .finished — the fuse blew")
    }

    private func append(_ line: String) {
        log.append(line)
        environment?.changed()
    }
}
