import Testing

@testable import Tether

private final class Service: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// One call site for every subscription a service keeps.
private func store(_ subscription: AnyCancellable, in service: Service) {
    subscription.store(boundTo: service.bag)
}

@Suite struct GrowthConcurrencyTests {
    /// Eight threads: four bind into services of their own (half of it cancelled again), four
    /// checkpoint and read snapshots meanwhile. The counts come out exact, and a service that
    /// grew at each checkpoint taken after the race is growing.
    @Test func checkpointsRaceBindingsOnEightThreads() async throws {
        let fixture = LedgerFixture()
        let ledger = fixture.ledger
        let services = fixture.run { (0..<4).map { _ in Service() } }
        await withTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask {
                    let updates = PassthroughSubject<Int, Never>()
                    for round in 0..<50 {
                        let subscription = updates.sink { _ in }
                        if round.isMultiple(of: 2) {
                            store(subscription, in: service)
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
                        _ = ledger.snapshotRearmingOnChange().growth
                    }
                }
            }
        }
        #expect(ledger.counters.subscriptions == 4 * 25)
        let updates = PassthroughSubject<Int, Never>()
        for _ in 0..<3 {
            store(updates.sink { _ in }, in: services[0])  // the same call site as in the race
            ledger.checkpoint()
        }
        let growth = ledger.snapshotRearmingOnChange().growth
        #expect(growth.map(\.owner) == [OwnerID(typeName: "Service", serial: 1)])
        #expect(growth.first?.counts == [26, 27, 28])
        for service in services { service.bag.dispose() }
    }
}
