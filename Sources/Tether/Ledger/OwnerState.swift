/// An owner's way through the ledger, from tracked to settled, and the facts that move it.
///
/// ```text
/// alive ─ended─▶ ending ─judged─▶ leaked ───────── gone ─▶ settled ("released late")
///                  │       └────▶ covered(by:) ─── gone ─▶ settled
///                  │                   └─uncovered─▶ leaked, or covered by the next ancestor
///                  └────────────────── gone ─────────────▶ settled
/// ```
///
/// *Gone* means the owner object is released and none of its entries is alive. A leak is reported
/// at its root: an owner judged while an ancestor leaks, or awaits its own verdict, is *covered*
/// by that ancestor's report, and becomes a leak of its own once no ancestor covers it any more.
///
/// Pure: ``on(_:)`` is the one transition function. ``LedgerState`` applies it under the ledger's
/// lock (`LedgerState+Owners.swift`) and carries out the ``Effect`` it returns.
struct OwnerState: Equatable {
    enum Phase: Equatable {
        /// Its lifetime has not ended.
        case alive
        /// Its lifetime ended; its verdict waits for the grace period.
        case ending
        /// Judged and reported: it, or something it owned, outlived its end.
        case leaked
        /// Judged leaking while the ancestor with this key leaks (or awaits its verdict): that
        /// report covers it.
        case covered(by: UInt64)
        /// Nothing left to follow: the ledger forgets it.
        case settled
    }

    enum Event: Equatable {
        /// Its lifetime ended.
        case ended
        /// Its lifetime deinitialized: the owner object is gone.
        case released
        case entryOpened
        case entryClosed
        /// Its grace period passed; `coveredBy` is the nearest ancestor that ``covers``, if any.
        case judged(coveredBy: UInt64?)
        /// The ancestor that covered it settled; `coveredBy` is the next one that covers, if any.
        case uncovered(coveredBy: UInt64?)
    }

    /// What the ledger does for a transition.
    enum Effect: Equatable {
        case none
        /// Queue its verdict.
        case queueVerdict
        /// Record and report its leak.
        case reportLeak
        /// File it under the ancestor whose leak covers it.
        case cover(by: UInt64)
        /// Its leak resolved itself: log it, forget the owner.
        case releasedLate
        /// Forget the owner.
        case forget
    }

    private(set) var phase = Phase.alive
    /// Whether the owner object is gone.
    private(set) var released = false
    /// Its live entries, bound to its lifetime or only attributed to it.
    private(set) var live = 0

    /// The owner object and everything it owned are gone.
    var isGone: Bool { released && live == 0 }

    /// Moves the state on `event`; returns what the ledger must do.
    mutating func on(_ event: Event) -> Effect {
        switch event {
        case .ended:
            guard phase == .alive else { return .none }
            phase = .ending
            return .queueVerdict
        case .entryOpened:
            live += 1
            return .none
        case .entryClosed:
            guard live > 0 else { return .none }
            live -= 1
            return settleIfGone()
        case .released:
            guard !released else { return .none }
            released = true
            return settleIfGone()
        case .judged(let ancestor):
            guard phase == .ending else { return .none }
            if isGone { return settleIfGone() }
            return leak(coveredBy: ancestor)
        case .uncovered(let ancestor):
            guard case .covered = phase else { return .none }
            return leak(coveredBy: ancestor)
        }
    }

    private mutating func leak(coveredBy ancestor: UInt64?) -> Effect {
        if let ancestor {
            phase = .covered(by: ancestor)
            return .cover(by: ancestor)
        }
        phase = .leaked
        return .reportLeak
    }

    /// An owner that ended and is gone settles; an alive one waits for its end (it ends when its
    /// lifetime deinitializes, at the latest).
    private mutating func settleIfGone() -> Effect {
        guard isGone else { return .none }
        switch phase {
        case .alive, .settled:
            return .none
        case .ending, .covered:
            phase = .settled
            return .forget
        case .leaked:
            phase = .settled
            return .releasedLate
        }
    }

    /// Whether ``LedgerSnapshot/Counters/ending`` counts it: ended, and neither gone nor
    /// reported — judged or not (a covered owner is on its way out with its ancestor).
    var isEnding: Bool {
        switch phase {
        case .ending, .covered: true
        case .alive, .leaked, .settled: false
        }
    }

    /// Whether its verdict is still to come.
    var awaitsVerdict: Bool { phase == .ending }

    /// Whether ``LedgerSnapshot/Counters/leaks`` counts it: a reported leak.
    var isReportedLeak: Bool { phase == .leaked }

    /// Whether its report covers the leaks of owners below it: it leaks (reported or covered), or
    /// its verdict is still to come. An ended owner still here at its verdict leaks (one that is
    /// gone has settled); one that goes first settles, and uncovers them then.
    var covers: Bool {
        switch phase {
        case .ending, .leaked, .covered: true
        case .alive, .settled: false
        }
    }
}
