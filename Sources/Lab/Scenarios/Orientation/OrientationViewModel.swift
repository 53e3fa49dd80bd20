import Tether

/// The Orientation scenario's view model: the orientation heard two ways — a Combine publisher and a task
/// iterating the orientation notifications as an async sequence — and shown as "portrait: yes/no".
///
/// Bound (the article's fix): the subscription is bound to the view model's lifetime and the loop's
/// task is stored in it, so both end when the sheet is dismissed. Leaky (the article's first
/// version): the publisher side is the same, but the task is never stored. The loop only holds
/// the view model weakly, so the view model deinitializes on dismissal — and the loop keeps
/// receiving every rotation. `Task.attributed(to:)` attributes it to the view model, so the ledger
/// names it in the leak and counts what it still receives as zombie deliveries.
///
/// Main-actor isolated; owned by its screen.
@MainActor
final class OrientationViewModel {
    let lifetime: Lifetime
    let mode: Mode
    private(set) var isPortraitFromPublisher = false
    private(set) var isPortraitFromSequence = false
    private(set) var publisherValues = 0
    private(set) var sequenceValues = 0
    private let device: Device
    private weak var environment: LabEnvironment?

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        self.mode = mode
        self.environment = environment
        device = environment.device
        lifetime = Lifetime(boundTo: parent, ledger: environment.ledger)
        lifetime.track(self)

        // The article's `assign(to: &$isPortraitFromPublisher)`: bound in both modes.
        device.orientationPublisher
            .map(\.isPortrait)
            .sink(boundTo: lifetime) { [weak self] isPortrait in self?.publisherReceived(isPortrait) }

        // Made before the task starts, so no rotation is missed.
        let orientations = device.notificationCenter.tetherNotifications(named: Device.orientationDidChange)
        switch mode {
        case .bound:
            Task { [weak self] in
                for await _ in orientations { self?.sequenceReceived() }
            }.store(boundTo: lifetime)
        case .leaky:
            // tether-lint: ignore unstored-task — the leaky twin of .store(boundTo: lifetime): never stored
            Task.attributed(to: lifetime) { [weak self] in
                for await _ in orientations { self?.sequenceReceived() }
            }
        }
    }

    private func publisherReceived(_ isPortrait: Bool) {
        isPortraitFromPublisher = isPortrait
        publisherValues += 1
        environment?.changed()
    }

    private func sequenceReceived() {
        isPortraitFromSequence = device.orientation.isPortrait
        sequenceValues += 1
        environment?.changed()
    }
}
