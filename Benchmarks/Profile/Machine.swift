import Synchronization
import Tether

/// Prints what this CPU charges for an atomic read-modify-write (each retain, release and fuse
/// gate is one) and for a read of the ledger's clock (three per bind and end). `make bench`
/// prints it after its report: the same code reads different ratios on CPUs whose atomics cost
/// 2.3 ns and 4.8 ns (Benchmarks/README.md, "Runs 15 and 16"). Each figure is the fastest of five
/// loops, as the suites judge p0.
func describeMachine() {
    let counter = Atomic<Int>(0)
    let adds = 20_000_000
    let atomic = fastest {
        secondsPerOperation(adds) {
            for _ in 0..<adds { counter.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    let clock = SystemClock()
    let reads = 2_000_000
    // Each read calls `clock_gettime`, which the optimizer cannot drop.
    let clockRead = fastest { secondsPerOperation(reads) { for _ in 0..<reads { _ = clock.now } } }

    print(
        "an atomic add (relaxed, uncontended) \(nanoseconds(atomic)); "
            + "a read of the ledger's clock (SystemClock.now) \(nanoseconds(clockRead))")
}

/// The fastest of five timings.
private func fastest(_ timing: () -> Double) -> Double {
    (0..<5).map { _ in timing() }.min()!
}

private func nanoseconds(_ seconds: Double) -> String {
    "\((seconds * 1e10).rounded() / 10) ns"
}
