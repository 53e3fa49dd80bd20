import Benchmark
import Foundation
import Observation
import OpenCombine
import Synchronization
import Support

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

    Benchmark("set/10 observers/Observation re-tracking", configuration: budget(scaling: .kilo)) { benchmark in
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
