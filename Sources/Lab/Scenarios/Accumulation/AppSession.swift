import Tether

/// The long-lived object of the accumulation scenario: an app session, the kind of object a real
/// app keeps for as long as it runs, with a bag of its own that screens are tempted to store into.
///
/// A ledger owner: what is stored in ``bag`` is recorded under the session, which never
/// ends while the lab runs — so nothing stored there is ever judged a leak. What it collects a
/// little more of on every visit is *growth*, found by the checkpoint the screen stack makes at
/// each dismissal. A resident of the lab, made the first time an Accumulation sheet needs it and
/// let go when the lab tears down. Main-actor isolated.
@MainActor
final class AppSession {
    /// The lab's session, made the first time an Accumulation sheet needs it.
    static let resident = Resident(name: "accumulation.session", releasedOnTearDown: true) {
        AppSession(ledger: $0.ledger)
    }

    /// The session's bag: what is stored here lives as long as the session.
    let bag: DisposeBag

    private init(ledger: Ledger) {
        bag = DisposeBag(ledger: ledger)
        bag.track(self)
    }

    /// The session's identity in the ledger (`AppSession#1`).
    var ownerID: OwnerID? { bag.ownerID }
}
