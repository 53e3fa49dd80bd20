import Contention
import Tether

// `threads ledger-on|ledger-off [count] [threads]`: the Lifetimes suite's bind and end on many
// threads (Contention/Contention.swift): `count` owners bound and ended on one ledger,
// shared out among `threads` threads (8 by default) that run at once; prints the wall time per
// owner. Under callgrind, which runs one thread at a time, it counts the same work's
// instructions, a lock's spinning and waiting included.
// In turns (`interleaved-lifetimes`): ledger off ÷ on, at 8 and 16 threads.

func profileContention(mode: String, count: Int, threads: Int) {
    let ledger = Ledger(isEnabled: mode == "ledger-on")
    let each = count / threads
    let seconds = secondsPerOperation(each * threads) { bindAndEnd(each, on: threads, in: ledger) }
    print("\(threads) threads × \(each) owners: \((seconds * 1e9).rounded() / 1000) µs an owner")
    print(ledger.counters)
}

/// Bind and end on 8 and 16 threads, the ledger off and on, in turns.
func interleavedContention(rounds: Int) {
    let owners = 500
    let off = Ledger(isEnabled: false)
    let on = Ledger()
    for threads in [8, 16] {
        interleaved(
            "Bind and end on \(threads) threads, one ledger", rounds: rounds, operations: owners * threads,
            [
                ("ledger off", { bindAndEnd(owners, on: threads, in: off) }),
                ("ledger on", { bindAndEnd(owners, on: threads, in: on) }),
            ])
    }
}
