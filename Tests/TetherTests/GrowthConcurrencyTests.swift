import Testing

@testable import Tether

private final class Service: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

@Suite struct GrowthConcurrencyTests {
    /// Eight threads: four bind into services of their own (half of it cancelled again), four
    /// checkpoint and read snapshots meanwhile. The counts come out exact, and a service that
    /// grew at each checkpoint taken after the race is growing.
    @Test func checkpointsRaceBindingsOnEightThreads() async throws {
        let fixture = LedgerFixture()
        let ledger = fixture.ledger
        let services = fixture.run { (0..<4).map { _ in Service() } }
        let updates = PassthroughSubject<Int, Never>()
        await withTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask {
                    for round in 0..<50 {
                        let subscription = updates.sink { _ in }
                        if round.isMultiple(of: 2) {
                            subscription.store(in: service.bag)
                        } else {
                            subscription.cancel()
                        }
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<25 {
                        ledger.checkpoint()
                        _ = ledger.snapshot().growth
                    }
                }
            }
        }
        #expect(ledger.counters.subscriptions == 4 * 25)
        for _ in 0..<3 {
            updates.sink { _ in }.store(in: services[0].bag)
            ledger.checkpoint()
        }
        let growth = ledger.snapshot().growth
        #expect(growth.map(\.owner) == [OwnerID(typeName: "Service", serial: 1)])
        #expect(growth.first?.counts == [26, 27, 28])
        for service in services { service.bag.dispose() }
    }
}
