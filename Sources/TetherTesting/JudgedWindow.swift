import Synchronization
import Tether

#if TETHER_TSAN
// As in Tether: under TSan the lock is the pthread-backed one, whose calls TSan can see.
typealias Mutex<Value> = SanitizerMutex<Value>
#endif

/// A ledger other than the test's, judged over the test's window: what was made in it while the
/// test ran — owners, and bindings with no owner — is judged as what the test made in its own.
/// For `Ledger.shared`, where work off the test's tasks records (a detached task, a Dispatch
/// queue, a thread).
///
/// The ledger is the whole process's: whatever else records into it during the window is judged
/// too. Windows on one ledger take turns, process-wide, so that two tests judging it at once do
/// not judge each other's work.
struct JudgedWindow: Sendable {
    /// The turns of each ledger judged, by identity: one window open on a ledger at a time. Kept
    /// for the process's life (a test process judges few ledgers); a ledger made where a released
    /// one was shares its turns, which only serializes the two.
    private static let turns = Mutex<[ObjectIdentifier: Turns]>([:])

    let ledger: Ledger
    private let turns: Turns
    /// The owners the ledger had when the window opened.
    private let ownersBefore: Set<OwnerID>
    /// Its live entries with no owner then, counted by what tells them apart.
    private let unownedBefore: [Mark: Int]

    /// An entry with no owner, told apart from others by its kind, site and when it was made.
    private struct Mark: Hashable {
        let kind: EntryKind
        let site: CallSite
        let made: Duration

        init(_ entry: LedgerSnapshot.Entry, in snapshot: LedgerSnapshot) {
            kind = entry.kind
            site = entry.site
            made = snapshot.time - entry.age
        }
    }

    /// What was made in the window and is still there.
    struct Made {
        var leaks: [LedgerSnapshot.Leak] = []
        /// The window's owners neither gone nor leaked: alive, or ended and on their way out.
        var owners: [LedgerSnapshot.Owner] = []
        var unowned: [LedgerSnapshot.Entry] = []

        /// Whether nothing is alive that has not ended: what ended waits for its verdict.
        var leftNothingAlive: Bool { unowned.isEmpty && !owners.contains { $0.state == .alive } }
        /// Whether an owner ended and is still there, its verdict to come.
        var awaitsVerdicts: Bool { owners.contains { $0.state == .ended } }
    }

    /// Opens a window on `ledger` once no other is open on it.
    static func open(on ledger: Ledger) async -> JudgedWindow {
        let turns = Self.turns.withLock { turns in
            if let known = turns[ObjectIdentifier(ledger)] { return known }
            let made = Turns()
            turns[ObjectIdentifier(ledger)] = made
            return made
        }
        await turns.take()
        return JudgedWindow(ledger, turns: turns)
    }

    private init(_ ledger: Ledger, turns: Turns) {
        self.ledger = ledger
        self.turns = turns
        let snapshot = ledger.snapshotRearmingOnChange()
        ownersBefore = Set(snapshot.owners.map(\.id))
        unownedBefore = snapshot.unowned.reduce(into: [:]) { $0[Mark($1, in: snapshot), default: 0] += 1 }
    }

    /// What the window made, as the ledger is now.
    func made() -> Made {
        let snapshot = ledger.snapshotRearmingOnChange()
        var made = Made()
        let covered = Set(snapshot.leaks.flatMap(\.covered))
        made.leaks = snapshot.leaks.filter { !ownersBefore.contains($0.owner) }
        made.owners = snapshot.owners.filter { owner in
            !ownersBefore.contains(owner.id) && owner.state != .leaked && !covered.contains(owner.id)
        }
        var before = unownedBefore
        made.unowned = snapshot.unowned.filter { entry in
            let mark = Mark(entry, in: snapshot)
            guard let count = before[mark], count > 0 else { return true }
            before[mark] = count - 1
            return false
        }
        return made
    }

    /// Waits (a grace period, on the wall clock, at most) for the verdicts on the window's owners
    /// that ended, closes the window, and says what it found, one text per issue.
    func close() async -> [String] {
        defer { turns.give() }
        var made = made()
        let deadline = ContinuousClock.now + ledger.gracePeriod * 1.1 + .milliseconds(100)
        while made.awaitsVerdicts, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
            made = self.made()
        }
        var found = made.leaks.map(\.report.description)
        for owner in made.owners {
            found.append(
                owner.state == .alive
                    ? LeakTracker.Result.leftAlive(owner)
                    : "\(owner.id) ended, and is still there after the test with no verdict yet "
                        + "(tracked at \(owner.site))")
        }
        if !made.unowned.isEmpty { found.append(LeakTracker.Result.leftAlive(made.unowned)) }
        return found
    }
}

/// Turns, taken one at a time in the order asked for.
private final class Turns: Sendable {
    private let state = Mutex<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func take() async {
        await withCheckedContinuation { turn in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(turn)
                return false
            }
            if now { turn.resume() }
        }
    }

    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
