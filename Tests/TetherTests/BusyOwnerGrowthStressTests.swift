import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Tether

/// A server as a program writes one: it lives as long as the program, and runs each request as a
/// task in its bag.
private final class Server: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// The busy-owner probes on real threads and real time: some seconds each, so they run only
/// when `TETHER_STRESS` is set. Their deterministic replays are `BusyOwnerGrowthTests`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TETHER_STRESS"] != nil, "set TETHER_STRESS"))
struct BusyOwnerGrowthStressTests {
    /// 400 requests 2 ms apart, each a task of 1–20 ms of work that checkpoints when it has
    /// served its request.
    @Test func aBusyServerIsNotGrowth() async throws {
        let ledger = Ledger()
        let heard = Recorder<GrowthReport>()
        let watch = ledger.onGrowth { heard.record($0) }
        let server = Ledger.$current.withValue(ledger) { Server() }
        let seen = Recorder<Int>()
        for _ in 0..<400 {
            Task(boundTo: server.bag) {
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...20)))
                seen.record(ledger.counters.tasks)
                ledger.checkpoint(scope: "request")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        await waitUntil("every request served") { ledger.counters.tasks == 0 }
        #expect(heard.events.isEmpty, "\(heard.events.map(\.headline))")
        print("busy server: at most \(seen.events.max() ?? 0) live tasks, \(heard.events.count) reports")
        watch.cancel()
        server.bag.dispose()
    }

    /// Eight threads adding and removing entries at one site of one owner, a ninth checkpointing
    /// as fast as it can meanwhile.
    @Test func eightThreadsOnOneSiteAreNotGrowth() async throws {
        let ledger = Ledger()
        let heard = Recorder<GrowthReport>()
        let watch = ledger.onGrowth { heard.record($0) }
        let server = Server()
        let owner = try #require(
            ledger.makeOwner(for: server, site: CallSite(fileID: "Server/main.swift", line: 3), parent: nil))
        let site = CallSite(fileID: "Server/main.swift", line: 27)
        let adding = Atomic<Int>(8)
        let checkpoints = Atomic<Int>(0)
        let adders: [@Sendable () -> Void] = (0..<8).map { _ in
            {
                for _ in 0..<20_000 {
                    ledger.open(.subscription, owner: owner, site: site, bound: false)?.end()
                }
                adding.subtract(1, ordering: .releasing)
            }
        }
        let checkpointer: @Sendable () -> Void = {
            while adding.load(ordering: .acquiring) > 0 {
                ledger.checkpoint()
                checkpoints.add(1, ordering: .relaxed)
            }
        }
        await onThreads(adders + [checkpointer])
        #expect(ledger.counters.subscriptions == 0)
        #expect(checkpoints.load(ordering: .relaxed) > 0)
        #expect(heard.events.isEmpty, "\(heard.events.map(\.headline))")
        print(
            "eight threads: \(checkpoints.load(ordering: .relaxed)) checkpoints, \(heard.events.count) reports"
        )
        watch.cancel()
        ledger.ownerEnded(owner)
    }
}
