import Benchmark
import Foundation
import Observation
import OpenCombine
import Support
import Synchronization
import Tether

// Delivering one value to N subscribers or observers. Names read `case/implementation`;
// `ratios.py` pairs them with Tether's side.

let benchmarks: @Sendable () -> Void = {
    // MARK: OpenCombine: PassthroughSubject → sink

    for subscribers in [1, 100] {
        Benchmark(
            "send/\(subscribers) subscriber\(subscribers == 1 ? "" : "s")/OpenCombine sink",
            configuration: budget(scaling: subscribers == 1 ? .kilo : .one)
        ) { benchmark in
            let subject = PassthroughSubject<Int, Never>()
            let sum = Counter()
            var cancellables = Set<AnyCancellable>()
            for _ in 0..<subscribers { subject.sink { sum.add($0) }.store(in: &cancellables) }
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.send(value) }
            benchmark.stopMeasurement()
            blackHole(sum.value)
            blackHole(cancellables)
        }
    }

    // MARK: Tether: sink(boundTo:) and fuse(heldBy:on:) → sink

    // Each Tether benchmark runs in a dedicated `Ledger(isEnabled:)` (system clock, 300 ms grace
    // period, as users get), on and off.
    for subscribers in [1, 100] {
        for enabled in [true, false] {
            Benchmark(
                "send/\(subscribers) subscriber\(subscribers == 1 ? "" : "s")/Tether sink(boundTo:) ledger \(enabled ? "on" : "off")",
                configuration: budget(scaling: subscribers == 1 ? .kilo : .one)
            ) { benchmark in
                let ledger = Ledger(isEnabled: enabled)
                Ledger.$current.withValue(ledger) {
                    let subject = PassthroughSubject<Int, Never>()
                    let sum = Counter()
                    let owner = Owner()
                    for _ in 0..<subscribers { subject.sink(boundTo: owner.bag) { sum.add($0) } }
                    benchmark.startMeasurement()
                    for value in benchmark.scaledIterations { subject.send(value) }
                    benchmark.stopMeasurement()
                    blackHole(sum.value)
                    blackHole(owner)
                }
                blackHole(ledger.counters)
            }

            Benchmark(
                "send/\(subscribers) subscriber\(subscribers == 1 ? "" : "s")/Tether fuse ledger \(enabled ? "on" : "off")",
                configuration: budget(scaling: subscribers == 1 ? .kilo : .one)
            ) { benchmark in
                let ledger = Ledger(isEnabled: enabled)
                Ledger.$current.withValue(ledger) {
                    let subject = PassthroughSubject<Int, Never>()
                    let sum = Counter()
                    let holder = Holder()
                    let fused = subject.fuse(heldBy: holder, on: \.cancellables)
                    var cancellables = Set<AnyCancellable>()
                    for _ in 0..<subscribers { fused.sink { sum.add($0) }.store(in: &cancellables) }
                    benchmark.startMeasurement()
                    for value in benchmark.scaledIterations { subject.send(value) }
                    benchmark.stopMeasurement()
                    blackHole(sum.value)
                    blackHole(cancellables)
                    blackHole(holder)
                }
                blackHole(ledger.counters)
            }
        }
    }

    // MARK: LiveData's alternatives: closures and NotificationCenter

    Benchmark("publish/100 observers/closure array", configuration: budget(scaling: .kilo)) { benchmark in
        let sum = Counter()
        let observers: [(Int) -> Void] = (0..<100).map { _ in { sum.add($0) } }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            for observer in observers { observer(value) }
        }
        benchmark.stopMeasurement()
        blackHole(sum.value)
    }

    Benchmark("publish/100 observers/NotificationCenter", configuration: budget()) { benchmark in
        let center = NotificationCenter()
        let name = Notification.Name("tether.bench.value")
        let sum = Tally()
        let tokens = (0..<100).map { _ in
            center.addObserver(forName: name, object: nil, queue: nil) { note in
                sum.add(note.userInfo?["value"] as? Int ?? 0)
            }
        }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            center.post(name: name, object: nil, userInfo: ["value": value])
        }
        benchmark.stopMeasurement()
        for token in tokens { center.removeObserver(token) }
        blackHole(sum.value)
    }

    // MARK: Tether: LiveData publish

    // 100 observers, each an object with its own tracked DisposeBag. Completions must be
    // `@Sendable`, so they add to a ``Tally`` (an atomic), as NotificationCenter's do.
    for enabled in [true, false] {
        Benchmark(
            "publish/100 observers/Tether LiveData ledger \(enabled ? "on" : "off")",
            configuration: budget(scaling: .kilo)
        ) { benchmark in
            let ledger = Ledger(isEnabled: enabled)
            Ledger.$current.withValue(ledger) {
                let live = LiveData<Int>()
                let sum = Tally()
                let observers = (0..<100).map { _ in Owner() }
                for observer in observers {
                    live.add(observer: observer, disposeBag: observer.bag) { sum.add($0) }
                }
                benchmark.startMeasurement()
                for value in benchmark.scaledIterations { live.publish(value: value) }
                benchmark.stopMeasurement()
                blackHole(sum.value)
                blackHole(observers)
            }
            blackHole(ledger.counters)
        }
    }

    // MARK: Observers held weakly: weak boxes, and LiveData with a bag that does not track them

    // What a user writes to hold observers weakly: an array of weak boxes, each checked before
    // its call.
    Benchmark("publish/100 observers held weakly/weak boxes", configuration: budget(scaling: .kilo)) {
        benchmark in
        let sum = Counter()
        let observers = (0..<100).map { _ in Watcher() }
        let boxes = observers.map { observer in WeakBox(observer) { sum.add($0) } }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            for box in boxes where box.observer != nil { box.call(value) }
        }
        benchmark.stopMeasurement()
        blackHole(sum.value)
        blackHole(observers)
    }

    // 100 plain objects registered with one owner's tracked bag, which does not track them: each
    // delivery checks that its observer is alive.
    for enabled in [true, false] {
        Benchmark(
            "publish/100 observers held weakly/Tether LiveData ledger \(enabled ? "on" : "off")",
            configuration: budget(scaling: .kilo)
        ) { benchmark in
            let ledger = Ledger(isEnabled: enabled)
            Ledger.$current.withValue(ledger) {
                let live = LiveData<Int>()
                let sum = Tally()
                let owner = Owner()
                let observers = (0..<100).map { _ in Watcher() }
                for observer in observers {
                    live.add(observer: observer, disposeBag: owner.bag) { sum.add($0) }
                }
                benchmark.startMeasurement()
                for value in benchmark.scaledIterations { live.publish(value: value) }
                benchmark.stopMeasurement()
                blackHole(sum.value)
                blackHole(observers)
                blackHole(owner)
            }
            blackHole(ledger.counters)
        }
    }

    // MARK: @Observed's alternatives: CurrentValueSubject and Swift Observation

    Benchmark("set/10 observers/CurrentValueSubject", configuration: budget(scaling: .kilo)) { benchmark in
        let subject = CurrentValueSubject<Int, Never>(0)
        let sum = Counter()
        var cancellables = Set<AnyCancellable>()
        for _ in 0..<10 { subject.sink { sum.add($0) }.store(in: &cancellables) }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.value = value }
        benchmark.stopMeasurement()
        blackHole(sum.value)
        blackHole(cancellables)
    }

    Benchmark("set/10 observers/Observation re-tracking", configuration: budget(scaling: .kilo)) {
        benchmark in
        let model = Model()
        let changes = Tally()
        let sum = Counter()
        // Each observer reads the value and asks to hear of the next change: withObservationTracking
        // fires once, so an observer that keeps observing re-tracks after every change.
        func track() {
            withObservationTracking {
                sum.add(model.value)
            } onChange: {
                changes.add(1)
            }
        }
        for _ in 0..<10 { track() }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            model.value = value
            for _ in 0..<10 { track() }
        }
        benchmark.stopMeasurement()
        blackHole(sum.value)
        blackHole(changes.value)
    }

    // MARK: Tether: @Observed set

    // 10 `observe(.did)` handlers on an `@Observed` property; handlers are `@Sendable`, so they
    // add to a ``Tally``.
    for enabled in [true, false] {
        Benchmark(
            "set/10 observers/Tether @Observed ledger \(enabled ? "on" : "off")",
            configuration: budget(scaling: .kilo)
        ) { benchmark in
            let ledger = Ledger(isEnabled: enabled)
            Ledger.$current.withValue(ledger) {
                let model = ObservedModel()
                let sum = Tally()
                let observations = (0..<10).map { _ in model.$value.observe(.did) { new, _ in sum.add(new) } }
                benchmark.startMeasurement()
                for value in benchmark.scaledIterations { model.value = value }
                benchmark.stopMeasurement()
                blackHole(sum.value)
                blackHole(observations)
            }
            blackHole(ledger.counters)
        }
    }
}

/// The observed model of the `@Observed` benchmark.
final class ObservedModel {
    @Observed var value = 0
}

/// An owner whose tracked bag bounds its subscriptions and registrations.
final class Owner: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
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

/// A fuse's holder: a plain object with a set of cancellables.
final class Holder {
    var cancellables = Set<AnyCancellable>()
}

/// The observed model of the Observation benchmark.
@Observable final class Model {
    var value = 0
}

/// What an observer does with a value: adds it up, so the optimizer cannot drop the delivery.
/// Plain (not atomic), so an observer costs only its call; ``Tally`` is for `@Sendable` callbacks.
final class Counter {
    private(set) var value = 0
    func add(_ amount: Int) { value &+= amount }
}

/// A counter for callbacks an API requires to be `@Sendable` (NotificationCenter, Observation's
/// `onChange`): one relaxed atomic add, a few nanoseconds more than ``Counter``.
final class Tally: Sendable {
    private let total = Atomic<Int>(0)
    func add(_ amount: Int) { total.wrappingAdd(amount, ordering: .relaxed) }
    var value: Int { total.load(ordering: .relaxed) }
}
