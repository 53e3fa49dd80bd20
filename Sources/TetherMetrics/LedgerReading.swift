import Tether

/// What a reporter reads of a ledger: the numbers its gauges show, and the count its zombie
/// counter follows.
struct LedgerReading: Equatable, Sendable {
    var owners = 0
    var ending = 0
    var subscriptions = 0
    var tasks = 0
    var observers = 0
    var bindings = 0
    var leakedOwners = 0
    var growingSites = 0
    /// Zombie deliveries since the ledger was made: the counter adds what this grew by.
    var zombies = 0

    init() {}

    /// Reads `ledger` now, and re-arms its change handlers, without building a snapshot.
    init(taking ledger: Ledger) {
        let counters = ledger.countersRearmingOnChange()
        owners = counters.owners
        ending = counters.ending
        subscriptions = counters.subscriptions
        tasks = counters.tasks
        observers = counters.observers
        bindings = counters.bindings
        leakedOwners = counters.leaks
        zombies = counters.zombies
        growingSites = counters.growing
    }

    /// The live entries of one kind.
    subscript(kind: EntryKind) -> Int {
        switch kind {
        case .subscription: subscriptions
        case .task: tasks
        case .observer: observers
        case .binding: bindings
        }
    }

    /// This reading with every gauge at 0 and the zombie count kept: what a reporter that ends
    /// leaves of its contribution (a counter never goes back).
    var gaugesTakenBack: LedgerReading {
        var reading = LedgerReading()
        reading.zombies = zombies
        return reading
    }
}
