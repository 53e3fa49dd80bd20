// Runs one benchmarked operation N times, outside package-benchmark, for valgrind's callgrind
// (which cannot run under the malloc interposer). See README.md, "Profiling a miss".
//
//     tether-bench-profile bind-and-end raw|ledger-on|ledger-off [count]

#if canImport(Glibc)
import Glibc
#endif
import OpenCombine
import Tether

let arguments = CommandLine.arguments
guard arguments.count >= 3, arguments[1] == "bind-and-end" else {
    print("usage: tether-bench-profile bind-and-end raw|ledger-on|ledger-off [count]")
    exit(2)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
let subject = PassthroughSubject<Int, Never>()

switch arguments[2] {
case "raw":
    for _ in 0..<count { _ = RawOwner(subject) }
case "ledger-on", "ledger-off":
    let ledger = Ledger(isEnabled: arguments[2] == "ledger-on")
    Ledger.$current.withValue(ledger) {
        for _ in 0..<count { _ = BagOwner(subject) }
    }
    print(ledger.counters)
default:
    print("unknown mode \(arguments[2])")
    exit(2)
}

final class RawOwner {
    var cancellables = Set<AnyCancellable>()
    var received = 0

    init(_ events: PassthroughSubject<Int, Never>) {
        events.sink { [unowned self] in received &+= $0 }.store(in: &cancellables)
    }
}

final class BagOwner {
    let bag = DisposeBag()
    var received = 0

    init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        events.sink { [unowned self] in received &+= $0 }.store(in: bag)
    }
}
