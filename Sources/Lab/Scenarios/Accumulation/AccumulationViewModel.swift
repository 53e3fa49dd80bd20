import Tether

/// The accumulation scenario's view model: it follows the orientation while its sheet is up.
///
/// Bound: the subscription is stored in the view model's own bag and ends with the sheet. Leaky
/// (the everyday mistake, `.store(in: &session.cancellables)` in plain Combine): it is stored in
/// the app session's bag, capturing the view model weakly. The view model deinitializes on
/// dismissal and no leak verdict falls, since the subscription's owner, the session, never ends;
/// but the session holds one more subscription after every visit. Three visits in a row make
/// the site *growing* in the ledger.
///
/// Main-actor isolated; owned by its screen.
@MainActor
final class AccumulationViewModel {
    let lifetime: Lifetime
    let mode: Mode
    /// The long-lived session (a resident of the lab).
    let session: AppSession
    /// Rotations this sheet has heard.
    private(set) var received = 0
    private weak var environment: LabEnvironment?

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        self.mode = mode
        self.environment = environment
        session = environment.resident(AppSession.resident)
        lifetime = Lifetime(boundTo: parent, ledger: environment.ledger)
        lifetime.track(self)

        let subscription = environment.device.orientationPublisher
            .dropFirst()
            .sink { [weak self] _ in self?.rotated() }
        switch mode {
        case .bound:
            subscription.store(boundTo: lifetime)
        case .leaky:
            // The session outlives this sheet: nothing ever takes this subscription out of its bag.
            // tether-lint: ignore foreign-bag — the leaky twin of .store(boundTo: lifetime)
            subscription.store(boundTo: session.bag)
        }
    }

    /// How many subscriptions the session's bag holds now, as the ledger counts them.
    var sessionSubscriptions: Int {
        guard let id = session.ownerID, let environment else { return 0 }
        let owner = environment.ledger.snapshotRearmingOnChange().owners.first { $0.id == id }
        return owner?.entries.count ?? 0
    }

    private func rotated() {
        received += 1
        environment?.changed()
    }
}
