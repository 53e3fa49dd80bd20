import Observation
import Tether

/// The Observation sheet's view model: the device's orientation watched with Swift's
/// `Observations`, the async sequence an `@Observable` model is followed with outside SwiftUI.
///
/// Bound: `Observations { device.orientation }.forEach(boundTo: lifetime)` with a `[weak self]`
/// body — the view model is held only while a value is applied, and the sheet's end cancels the
/// loop. Leaky: the loop everyone writes first, `Task { [weak self] in guard let self … for await
/// … }`. The unwrap before the loop turns the weak capture into a strong one for as long as the
/// loop runs, and the loop runs as long as the view model lives: it never deinitializes, nothing
/// cancels the loop, and every later rotation reaches a view model whose sheet is gone.
/// `Task.attributed(to:)` names the loop in the ledger.
///
/// Main-actor isolated; owned by its screen (and, leaky, by its own loop).
@MainActor
final class ObservationViewModel {
    let lifetime: Lifetime
    let mode: Mode
    /// The orientation the loop last handed over; nil until the first value.
    private(set) var orientation: Orientation?
    /// How many values the loop handed over (the first is the orientation when it began).
    private(set) var received = 0
    private let device: Device
    /// Weak: the leaky twin never dies, and must not keep the lab's environment alive with it.
    private weak var environment: LabEnvironment?

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        self.mode = mode
        self.environment = environment
        let device = environment.device
        self.device = device
        lifetime = Lifetime(boundTo: parent, ledger: environment.ledger)
        lifetime.track(self)
        // `Observations` is in the OS from macOS 26 and iOS 26 (and in every Linux toolchain from
        // Swift 6.2); before that the sheet says so and watches nothing.
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        switch mode {
        case .bound:
            Observations { device.orientation }
                .forEach(boundTo: lifetime) { [weak self] orientation in self?.apply(orientation) }
        case .leaky:
            // tether-lint: ignore unstored-task — the leaky twin of forEach(boundTo: lifetime)
            Task.attributed(to: lifetime) { [weak self] in
                // tether-lint: ignore strong-self-loop — the leaky twin of forEach(boundTo: lifetime)
                guard let self else { return }
                for await orientation in Observations({ self.device.orientation }) {
                    // Tether sees no element of a loop it does not run: counted by hand, so the
                    // rotations that reach the view model after its end show as zombie deliveries.
                    Task.countDelivery()
                    self.apply(orientation)
                }
            }
        }
    }

    /// Whether this platform has `Observations` (the sheet says so when it has not).
    var isAvailable: Bool {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        return false
    }

    private func apply(_ orientation: Orientation) {
        self.orientation = orientation
        received += 1
        environment?.changed()
    }
}
