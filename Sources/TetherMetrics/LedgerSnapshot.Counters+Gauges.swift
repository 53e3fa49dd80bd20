import Tether

extension LedgerSnapshot.Counters {
    /// These counters with every gauge at 0 and the zombie count kept: what a reporter that ends
    /// leaves of its contribution (a counter never goes back).
    var gaugesTakenBack: LedgerSnapshot.Counters {
        var counters = LedgerSnapshot.Counters()
        counters.zombies = zombies
        return counters
    }
}
