import OpenCombine
import Tether

// Replays the Delivery suite's LiveData and `@Observed` benchmarks for callgrind, and compares
// them with their alternatives in turns (`interleaved`).
//
//     livedata raw|ledger-on|ledger-off        one publish to 100 observers whose bags track them;
//                                              raw: the closure array
//     livedata-weak raw|ledger-on|ledger-off   one publish to 100 observers whose bag does not
//                                              track them; raw: an array of weak boxes, each
//                                              checked before its call
//     observed raw|ledger-on|ledger-off        one set with 10 `.did` observers;
//                                              raw: a CurrentValueSubject with 10 sinks
//
// The observers add to a plain ``Counter`` (the closure array, the weak boxes, the sinks) or,
// where Tether requires a `@Sendable` closure, to a ``Tally``; as in the Delivery suite.

/// Runs `count` operations of `name` in `mode` and prints something that depends on them.
func profileObservers(_ name: String, mode: String, count: Int, ledger: Ledger) {
    let operation: () -> Void
    switch (name, mode) {
    case ("livedata", "raw"): operation = closureArray()
    case ("livedata-weak", "raw"): operation = weakBoxes()
    case ("observed", "raw"): operation = currentValueSubject()
    case ("livedata", _): operation = Ledger.$current.withValue(ledger) { liveData(tracked: true) }
    case ("livedata-weak", _): operation = Ledger.$current.withValue(ledger) { liveData(tracked: false) }
    case ("observed", _): operation = Ledger.$current.withValue(ledger) { observed() }
    default:
        fatalError("unknown case \(name) \(mode)")
    }
    for _ in 0..<count { operation() }
}

/// The LiveData and `@Observed` pairs in turns within one process (see `interleaved`).
func interleavedObservers(rounds: Int, ledger: Ledger) {
    let publishes = 200
    func repeating(_ operation: @escaping () -> Void, _ times: Int) -> () -> Void {
        { for _ in 0..<times { operation() } }
    }
    let (tracked, untracked, observedSet) = Ledger.$current.withValue(ledger) {
        (liveData(tracked: true), liveData(tracked: false), observed())
    }
    interleaved(
        "LiveData publish to 100 observers whose bags track them", rounds: rounds, operations: publishes,
        [
            ("closure array", repeating(closureArray(), publishes)),
            ("closure array adding atomically", repeating(closureArrayAddingAtomically(), publishes)),
            ("LiveData", repeating(tracked, publishes)),
        ])
    interleaved(
        "LiveData publish to 100 observers held weakly", rounds: rounds, operations: publishes,
        [("weak boxes", repeating(weakBoxes(), publishes)), ("LiveData", repeating(untracked, publishes))])
    let sets = 2_000
    interleaved(
        "@Observed set with 10 .did observers", rounds: rounds, operations: sets,
        [
            ("CurrentValueSubject", repeating(currentValueSubject(), sets)),
            ("@Observed", repeating(observedSet, sets)),
        ])
}

/// What a publish returns: a closure that publishes the next value, keeping its observers alive.
private func closureArray() -> () -> Void {
    let sum = Counter()
    let observers: [(Int) -> Void] = (0..<100).map { _ in { sum.add($0) } }
    var value = 0
    return {
        value &+= 1
        for observer in observers { observer(value) }
    }
}

/// The closure array with LiveData's observers' work: an atomic add (their closures are
/// `@Sendable`), where the closure array's is a plain one. Tells the delivery from the work.
private func closureArrayAddingAtomically() -> () -> Void {
    let sum = Tally()
    let observers: [(Int) -> Void] = (0..<100).map { _ in { sum.add($0) } }
    var value = 0
    return {
        value &+= 1
        for observer in observers { observer(value) }
    }
}

/// Observers held weakly by hand: each call checks that its observer is still there.
private func weakBoxes() -> () -> Void {
    let sum = Counter()
    let observers = (0..<100).map { _ in Watcher() }
    let boxes = observers.map { observer in WeakBox(observer) { sum.add($0) } }
    var value = 0
    return {
        value &+= 1
        for box in boxes where box.observer != nil { box.call(value) }
        _ = observers
    }
}

/// 100 observers, each with its own tracked bag (`tracked`), or 100 plain objects registered with
/// one owner's bag, which does not track them: each delivery checks its observer is alive.
private func liveData(tracked: Bool) -> () -> Void {
    let live = LiveData<Int>()
    let sum = Tally()
    let owners = (0..<100).map { _ in Owner() }
    let watchers = (0..<100).map { _ in Watcher() }
    let bag = owners[0].bag
    for index in 0..<100 {
        if tracked {
            live.add(observer: owners[index], disposeBag: owners[index].bag) { sum.add($0) }
        } else {
            live.add(observer: watchers[index], disposeBag: bag) { sum.add($0) }
        }
    }
    var value = 0
    return {
        value &+= 1
        live.publish(value: value)
        _ = (owners, watchers)
    }
}

private func currentValueSubject() -> () -> Void {
    let subject = CurrentValueSubject<Int, Never>(0)
    let sum = Counter()
    var cancellables = Set<AnyCancellable>()
    for _ in 0..<10 { subject.sink { sum.add($0) }.store(in: &cancellables) }
    var value = 0
    return {
        value &+= 1
        subject.value = value
        _ = cancellables
    }
}

private func observed() -> () -> Void {
    let model = ObservedModel()
    let sum = Tally()
    let observations = (0..<10).map { _ in model.$value.observe(.did) { new, _ in sum.add(new) } }
    var value = 0
    return {
        value &+= 1
        model.value = value
        _ = observations
    }
}

final class ObservedModel {
    @Observed var value = 0
}

/// An observer that holds nothing: what a weak registration watches.
final class Watcher: Sendable {}

/// A weakly held observer and what to call while it is there.
struct WeakBox {
    weak var observer: AnyObject?
    let call: (Int) -> Void

    init(_ observer: AnyObject, call: @escaping (Int) -> Void) {
        self.observer = observer
        self.call = call
    }
}

/// A plain counter for closures that need not be `@Sendable`, as in the Delivery suite.
final class Counter {
    private(set) var value = 0
    func add(_ amount: Int) { value &+= amount }
}
