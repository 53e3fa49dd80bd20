import Tether

/// The Observed sheet's view model: two `@Observed` values, A and B, each with a will/did log
/// observation, a tally observation on A that can be made obsolete and cleansed, and a two-way
/// binding between them.
///
/// Bound, every observation is made with `observe(_:boundTo: lifetime)` and captures the view model
/// weakly: they end with the sheet, the view model goes, and the binding with it. Leaky, the
/// observations are attributed to the view model but not bound to it, and their closures capture
/// it strongly: A's storage holds a closure that holds the view model that holds A — the view
/// model never dies, a leak the ledger names by the first observation's call site.
///
/// The values are independent of the orientation: rotating changes nothing here.
@MainActor
final class ObservedViewModel {
    /// Where the tally observation stands.
    enum TallyState: Equatable {
        case live
        /// Marked obsolete: disabled for good, still held by A until a purge.
        case obsolete
        /// Purged by `cleanse` (or another call on A): its closure is released.
        case purged
    }

    /// One call of a log observation, as the log's lines tell it in words.
    enum Heard: Equatable {
        case will(String, to: Int)
        case did(String, from: Int, to: Int)
    }

    @Observed var a = 0
    @Observed var b = 0

    let lifetime: Lifetime
    let mode: Mode
    /// The will/did log, oldest first.
    private(set) var log = BoundedLog<String>(capacity: 200)
    /// What the log observations heard, oldest first.
    private(set) var heard = BoundedLog<Heard>(capacity: 200)
    private(set) var isBound = false
    /// A's and B's log observations.
    private(set) var logA: PropertyObservation?
    private(set) var logB: PropertyObservation?
    private(set) var tally: PropertyObservation?
    private(set) var tallyState = TallyState.live
    /// How many changes of A the tally saw.
    private(set) var tallied = 0
    /// Weak: the leaky twin never dies, and must not keep the lab's environment alive with it.
    private weak var environment: LabEnvironment?

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        self.mode = mode
        self.environment = environment
        lifetime = Lifetime(boundTo: parent, ledger: environment.ledger)
        lifetime.track(self)
        switch mode {
        case .bound:
            logA = $a.observe(.all, boundTo: lifetime) { [weak self] new, old in
                MainActor.assumeIsolated { self?.record("A", new, old) }
            }
            logB = $b.observe(.all, boundTo: lifetime) { [weak self] new, old in
                MainActor.assumeIsolated { self?.record("B", new, old) }
            }
        case .leaky:
            // The naive observations: their closures capture self strongly, and A and B are self's.
            // tether-lint: ignore sink-retain-cycle — the leaky twin of observe(_:boundTo:)
            logA = $a.observe(.all, attributedTo: lifetime) { new, old in
                MainActor.assumeIsolated { self.record("A", new, old) }
            }
            // tether-lint: ignore sink-retain-cycle — the leaky twin of observe(_:boundTo:)
            logB = $b.observe(.all, attributedTo: lifetime) { new, old in
                MainActor.assumeIsolated { self.record("B", new, old) }
            }
        }
        startTally()
    }

    /// Whether the log observations fire (`d` toggles them between `.all` and `.disabled`).
    var logsEnabled: Bool { logA?.isEnabled ?? false }

    // MARK: Keys

    func changeA(by delta: Int) { a += delta }

    func changeB(by delta: Int) { b += delta }

    /// Binds A and B two ways.
    func bind() {
        let bound = $a.bind($b)
        notePurge()
        isBound = isBound || bound
        note(bound ? "bind: A ⇄ B bound" : "bind: already bound")
    }

    /// Severs the binding.
    func unbind() {
        let unbound = $a.unbind($b)
        notePurge()
        if unbound { isBound = false }
        note(unbound ? "unbind: A and B independent" : "unbind: not bound")
    }

    /// Toggles the log observations between `.all` and `.disabled`.
    func toggleLogs() {
        let kind: ObservationType = logsEnabled ? .disabled : .all
        logA?.kind = kind
        logB?.kind = kind
        note("log observations: .\(kind)")
    }

    /// Makes the tally obsolete — or, once it was purged, starts a new one.
    func obsoleteOrRestartTally() {
        switch tallyState {
        case .live:
            tally?.isObsolete = true
            tallyState = .obsolete
            note("tally: obsolete (disabled; A still holds it until cleanse)")
        case .obsolete:
            note("tally: already obsolete — c cleanses it")
        case .purged:
            startTally()
            note("tally: a new one observes A")
        }
    }

    /// Purges obsolete observations from A and B.
    func cleanse() {
        $a.cleanse()
        $b.cleanse()
        let purged = tallyState == .obsolete
        notePurge()
        note(purged ? "cleanse: obsolete tally purged" : "cleanse: nothing obsolete")
    }

    // MARK: Helpers

    private func startTally() {
        tallied = 0
        tallyState = .live
        switch mode {
        case .bound:
            tally = $a.observe(.did, boundTo: lifetime) { [weak self] _, _ in
                MainActor.assumeIsolated { self?.tallied += 1 }
            }
        case .leaky:
            // tether-lint: ignore sink-retain-cycle — the leaky twin of observe(_:boundTo:)
            tally = $a.observe(.did, attributedTo: lifetime) { _, _ in
                MainActor.assumeIsolated { self.tallied += 1 }
            }
        }
    }

    /// Every call on A (observe, remove, bind, unbind, cleanse) purges its obsolete observations.
    private func notePurge() {
        if tallyState == .obsolete { tallyState = .purged }
    }

    private func record(_ name: String, _ new: Int, _ old: Int?) {
        if let old {
            heard.append(.did(name, from: old, to: new))
            note("did  \(name) \(old) → \(new)")
        } else {
            heard.append(.will(name, to: new))
            note("will \(name) → \(new)")
        }
    }

    private func note(_ line: String) {
        log.append(line)
        environment?.changed()
    }
}
