import Foundation
import Synchronization
import TestSupport
import Testing
import Tether

@testable import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An owner whose subscription counts what it delivers (a `.store(in:)` one counts nothing).
private final class DeliveringOwner {
    let bag = DisposeBag()

    init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        events.sink(boundTo: bag) { _ in }
    }
}

/// The server end to end, in this process: a ledger on a manual clock, a server on a socket in a
/// fresh directory, real clients.
@Suite struct LedgerServerTests {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    let ledger: Ledger
    let subject = PassthroughSubject<Int, Never>()

    init() throws {
        directory = try TemporaryDirectory()
        ledger = Ledger(clock: clock)
    }

    var path: String { directory("ledger.sock") }

    func connect() async throws -> (LedgerClient, EventLog) {
        let client = try await LedgerClient.connect(to: path)
        return (client, EventLog(client))
    }

    @Test func aClientGetsTheHelloTheLedgerAndThenEachChange() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let owner = Ledger.$current.withValue(ledger) { TestOwner(subject) }
        let (client, log) = try await connect()
        #expect(client.hello == InspectorHello(pid: getpid(), process: ProcessInfo.processInfo.processName))
        let first = await log.waitForSnapshot()
        #expect(first?.sequence == 1)
        #expect(first?.owners.map(\.id) == [owner.bag.ownerID].compactMap { $0 })
        #expect(first?.counters.subscriptions == 1)

        ledger.note("changed")
        await log.waitForSnapshot { $0.notes == ["changed"] }
        #expect(log.snapshots.map(\.sequence) == [1, 2])
        withExtendedLifetime(owner) {}
    }

    /// Idle, the server takes no snapshot and arms no timer: the next snapshot after a quiet
    /// spell is the one of the next change, with the next sequence number.
    @Test func nothingIsSentWhileNothingChanges() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let (_, log) = try await connect()
        await log.waitForSnapshot()
        #expect(try await server.inspect { !$0.isTimerArmed && $0.snapshotsTaken == 1 })
        _ = ledger.snapshotRearmingOnChange()  // reading the ledger is no change
        _ = ledger.counters
        #expect(try await server.inspect { !$0.isTimerArmed && $0.snapshotsTaken == 1 })
        ledger.note("marker")
        await log.waitForSnapshot { $0.notes == ["marker"] }
        #expect(
            log.snapshots.map(\.sequence) == [1, 2], "nothing between the first snapshot and the marker's")
        #expect(try await server.inspect { !$0.isTimerArmed })
    }

    /// A client that reads nothing while the ledger changes: the server keeps serving, and when
    /// the client reads again it gets the newest snapshot, the ones in between dropped.
    @Test func aStuckClientGetsTheNewestSnapshotWhenItReadsAgain() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger, minimumInterval: .milliseconds(1))
        defer { server.stop() }
        // Big snapshots (some 100 KB), so that a few fill the socket and NIO's buffer.
        let owners = Ledger.$current.withValue(ledger) { (0..<300).map { _ in TestOwner(subject) } }
        let stuck = try RawClient(path: path)
        let (_, log) = try await connect()
        await log.waitForSnapshot()
        let changes = 20
        for change in 1...changes {
            ledger.note("\(change)")
            await log.waitForSnapshot("the snapshot of change \(change)") { $0.notes.last == "\(change)" }
        }
        let taken = try await server.inspect { $0.snapshotsTaken }
        #expect(taken >= changes + 1, "one for the stuck client's join (the second joins it), one per change")
        await waitUntil("the newest snapshot at the stuck client") {
            stuck.snapshots().last?.notes.last == "\(changes)"
        }
        let received = stuck.snapshots()
        #expect(received.last?.sequence == taken)
        #expect(
            received.count < changes, "\(received.count) of \(taken) snapshots: the intermediate ones dropped"
        )
        #expect(stuck.lines().first?.contains(#""type":"hello""#) == true)
        withExtendedLifetime(owners) {}
    }

    /// Garbage, half-closed sockets and a flood of bytes from one client: the others, and it,
    /// keep getting snapshots.
    @Test func garbageFromAClientHarmsNothing() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let (_, log) = try await connect()
        let rude = try RawClient(path: path)
        var random = SeededGenerator(seed: 42)
        var garbage = (0..<(1 << 18)).map { _ in UInt8.random(in: 0...255, using: &random) }
        garbage +=
            Array(#"{"type":"hello","version":99}"#.utf8) + [10]
            + Array(repeating: UInt8(ascii: "{"), count: 10_000)
        var sent = 0
        await waitUntil("the garbage sent") {
            sent += rude.send(Array(garbage[sent...]))
            return sent == garbage.count
        }
        rude.shutdownSending()
        ledger.note("still here")
        await log.waitForSnapshot { $0.notes == ["still here"] }
        await waitUntil("the snapshot at the rude client") { rude.snapshots().last?.notes == ["still here"] }
        #expect(try await server.inspect { $0.clientCount } == 2)
    }

    /// A client past the most a server serves at once waits, unaccepted, in the queue of
    /// connections — not closed — and the place that frees up goes to it (`AcceptGateTests` shows
    /// the accepts withheld).
    @Test func aClientPastTheMostServedAtOnceWaitsForAPlace() async throws {
        let server = try LedgerServer.start(
            at: path, ledger: ledger, minimumInterval: .milliseconds(100), maximumClients: 2)
        defer { server.stop() }
        var served = try [RawClient(path: path), RawClient(path: path)]
        await waitUntil("two clients served") { (try? await server.inspect { $0.clientCount }) == 2 }
        let third = try RawClient(path: path)
        #expect(try await server.inspect { $0.clientCount } == 2)
        #expect(served.allSatisfy { !$0.isClosedByServer && $0.lines().first?.contains("hello") == true })

        served.removeFirst()
        await waitUntil("the third said hello to") { third.lines().first?.contains("hello") == true }
        await waitUntil("the third's snapshot") { !third.snapshots().isEmpty }
        #expect(try await server.inspect { $0.clientCount } == 2)
        #expect(!third.isClosedByServer)
    }

    /// The hello does not wait for snapshots: while one is being taken — here held until the test
    /// lets it go — a client that connects is said hello to at once. It gets the next snapshot,
    /// one started after it joined; the first client gets the held one first.
    @Test func aClientIsSaidHelloToWhileASnapshotIsTaken() async throws {
        let held = SnapshotHold()
        let server = try LedgerServer.start(
            at: path, ledger: ledger, minimumInterval: .milliseconds(1),
            takeSnapshot: { ledger, sequence in
                if sequence == 1 { held.hold() }
                return ServingHub.encodeSnapshot(ledger, sequence)
            })
        defer { server.stop() }
        let (_, first) = try await connect()
        await waitUntil("the first snapshot being taken") { held.isHolding }
        let (second, log) = try await connect()
        #expect(second.hello.pid == getpid(), "said hello while the snapshot is held")
        #expect(first.snapshots.isEmpty && log.snapshots.isEmpty)
        held.release()
        #expect(await first.waitForSnapshot()?.sequence == 1)
        #expect(await log.waitForSnapshot()?.sequence == 2, "a snapshot started after it joined")
    }

    /// A leak found while a client is connected reaches it as a `leak` message with the whole
    /// report, and stays in the snapshots that follow.
    @Test func aLeakIsSentWithItsReportAsItIsFound() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let owner = Ledger.$current.withValue(ledger) { LeakyOwner(subject) }
        let (_, log) = try await connect()
        await log.waitForSnapshot { $0.owners.count == 1 }
        owner.bag.end()
        subject.send(1)
        clock.advance(by: ledger.gracePeriod)
        await waitUntil("the leak message") { log.reports.count == 1 }
        let report = try #require(log.reports.first)
        #expect(report.owner.typeName == "LeakyOwner")
        #expect(report.survivors.map(\.deliveriesAfterEnd) == [1])
        #expect(report.trace.hasPrefix("LeakyOwner#1 leaked"))
        let snapshot = await log.waitForSnapshot { !$0.leaks.isEmpty }
        #expect(snapshot?.leaks.first?.report == report)
        withExtendedLifetime(owner) {}
    }

    /// The callback connection: the client first, then each event, all on the queue given.
    @Test func aClientOnAQueueGetsTheClientThenEachEvent() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let queue = DispatchQueue(label: "LedgerServerTests.client")
        let log = Mutex<[String]>([])
        let connected = Mutex<LedgerClient?>(nil)
        LedgerClient.connect(
            to: path, queue: queue,
            events: { event in
                dispatchPrecondition(condition: .onQueue(queue))
                switch event {
                case .snapshot(let snapshot): log.withLock { $0.append("snapshot \(snapshot.notes)") }
                case .leak: log.withLock { $0.append("leak") }
                case .disconnected(let reason): log.withLock { $0.append("disconnected \(reason)") }
                }
            },
            completion: { result in
                dispatchPrecondition(condition: .onQueue(queue))
                log.withLock { $0.append("connected") }
                connected.withLock { $0 = try? result.get() }
            })
        await waitUntil("the first snapshot") { log.withLock { $0.count } >= 2 }
        ledger.note("changed")
        await waitUntil("the next snapshot") { log.withLock { $0.last } == "snapshot [\"changed\"]" }
        let client = try #require(connected.withLock { $0 })
        #expect(client.hello.pid == getpid())
        client.close()
        await waitUntil("the end") { log.withLock { $0.last?.hasPrefix("disconnected") } == true }
        #expect(
            log.withLock { $0 } == [
                "connected", "snapshot []", "snapshot [\"changed\"]", "disconnected closed",
            ])

        let failed = Mutex<LedgerClientError?>(nil)
        LedgerClient.connect(to: directory("none.sock"), queue: queue, events: { _ in }) { result in
            if case .failure(let error) = result { failed.withLock { $0 = error } }
        }
        await waitUntil("the failure") { failed.withLock { $0 } != nil }
        #expect(failed.withLock { $0 } == .missing(path: directory("none.sock")))
    }

    /// Events read before the connection's outcome is queued (the hello and the first snapshot
    /// can come before the connect future's callbacks run) wait for it: the outcome comes first.
    @Test func aCallbackConnectionQueuesItsOutcomeBeforeAnyEvent() async {
        let queue = DispatchQueue(label: "LedgerServerTests.delivery")
        let log = Mutex<[String]>([])
        let delivery = QueuedDelivery(queue: queue) { event in
            if case .snapshot(let snapshot) = event {
                log.withLock { $0.append("snapshot \(snapshot.sequence)") }
            }
        }
        delivery.deliver(.snapshot(InspectorSnapshot(sequence: 1)))
        delivery.complete { log.withLock { $0.append("completion") } }
        delivery.deliver(.snapshot(InspectorSnapshot(sequence: 2)))
        await waitUntil("three deliveries") { log.withLock { $0.count } == 3 }
        #expect(log.withLock { $0 } == ["completion", "snapshot 1", "snapshot 2"])
    }

    /// Costs nothing while no client is connected: the server registers with the ledger when the
    /// first client comes and cancels when the last one goes.
    @Test func theLedgerIsObservedOnlyWhileAClientIsConnected() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        #expect(try await server.inspect { !$0.isObservingLedger && $0.snapshotsTaken == 0 })

        let (first, firstLog) = try await connect()
        let (second, secondLog) = try await connect()
        await firstLog.waitForSnapshot()
        await secondLog.waitForSnapshot()
        #expect(try await server.inspect { $0.isObservingLedger && $0.clientCount == 2 })
        first.close()
        #expect(await firstLog.waitForDisconnect() == .closedByClient)
        try await waitUntil("one client left") { try await server.inspect { $0.clientCount } == 1 }
        #expect(try await server.inspect { $0.isObservingLedger })
        second.close()
        try await waitUntil("no client left") { try await server.inspect { $0.clientCount } == 0 }
        #expect(try await server.inspect { !$0.isObservingLedger && !$0.isTimerArmed })
    }

    /// Ending the iteration of the events ends the connection: nothing keeps it open unseen.
    @Test func cancellingTheIterationClosesTheConnection() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let client = try await LedgerClient.connect(to: path)
        let reader = Task {
            for await _ in client.events {}
        }
        try await waitUntil("the client connected") { try await server.inspect { $0.clientCount } == 1 }
        reader.cancel()
        try await waitUntil("the client gone") { try await server.inspect { $0.clientCount } == 0 }
    }

    /// A client that joins gets a snapshot taken after it joined, at the pace: values delivered
    /// since the last one, which are no change of the ledger, are in it.
    @Test func aJoiningClientGetsTheDeliveriesSinceTheLastSnapshot() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let owner = Ledger.$current.withValue(ledger) { DeliveringOwner(subject) }
        let (_, firstLog) = try await connect()
        let first = await firstLog.waitForSnapshot()
        #expect(first?.owners.first?.entries.first?.deliveries == 0)
        for value in 0..<5 { subject.send(value) }
        let (_, secondLog) = try await connect()
        let second = await secondLog.waitForSnapshot()
        #expect(second?.sequence == 2)
        #expect(second?.owners.first?.entries.first?.deliveries == 5)
        #expect(try await server.inspect { $0.snapshotsTaken } == 2)
        withExtendedLifetime(owner) {}
    }

    /// A client that joins while the next snapshot waits for its interval gets its hello, then
    /// that snapshot, and only then leak lines: a leak found meanwhile is in the snapshot.
    @Test func aLeakIsNeverSentBeforeTheFirstSnapshot() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger, minimumInterval: .seconds(3_600))
        defer { server.stop() }
        let owner = Ledger.$current.withValue(ledger) { LeakyOwner(subject) }
        let first = try RawClient(path: path)
        await waitUntil("the first client's snapshot") { first.snapshots().count == 1 }
        owner.bag.end()  // a change within the interval: the timer is armed
        try await waitUntil("the timer armed") { try await server.inspect { $0.isTimerArmed } }
        let second = try RawClient(path: path)
        try await waitUntil("the second client joined") { try await server.inspect { $0.clientCount } == 2 }
        await waitUntil("its hello") { second.lines().count == 1 }
        clock.advance(by: ledger.gracePeriod)
        await waitUntil("the leak at the first client") {
            first.lines().contains { $0.contains(#""type":"leak""#) }
        }
        #expect(try await server.inspect { $0.clientCount } == 2)
        #expect(second.lines().count == 1, "the second client waits for its snapshot: \(second.lines())")
        withExtendedLifetime(owner) {}
    }

    /// A server started at a relative path removes its socket by where it was, whatever the
    /// process's working directory is by then.
    @Test func aRelativePathIsRemovedFromWhereItWas() {
        #expect(SocketFile.absolute("lab.sock", from: "/srv/app") == "/srv/app/lab.sock")
        #expect(SocketFile.absolute("run/lab.sock", from: "/srv/app") == "/srv/app/run/lab.sock")
        #expect(SocketFile.absolute("/tmp/lab.sock", from: "/srv/app") == "/tmp/lab.sock")
    }

    /// Clients that connect and close, one after another, against a ledger that does not change:
    /// they share the snapshots changes get — none here after the first, whose interval (an
    /// hour, longer than any run) has not passed — instead of costing one each.
    @Test func aConnectLoopTakesNoSnapshotPerConnection() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger, minimumInterval: .seconds(3_600))
        defer { server.stop() }
        let (first, log) = try await connect()
        await log.waitForSnapshot()
        first.close()
        try await waitUntil("the first client left") { try await server.inspect { $0.clientCount } == 0 }
        for _ in 0..<30 {
            do {
                let client = try RawClient(path: path)
                try await waitUntil("the client joined") { try await server.inspect { $0.clientCount } == 1 }
                #expect(client.lines().first?.contains(#""type":"hello""#) == true, "the hello comes at once")
            }
            try await waitUntil("the client left") { try await server.inspect { $0.clientCount } == 0 }
        }
        #expect(try await server.inspect { $0.snapshotsTaken } == 1)
        #expect(try await server.inspect { !$0.isTimerArmed })
    }

    @Test func stopRemovesTheSocketAndEndsEveryClient() async throws {
        let server = try LedgerServer.start(at: path, ledger: ledger)
        let (_, log) = try await connect()
        await log.waitForSnapshot()
        server.stop()
        #expect(!isSocket(path))
        #expect(directory.names.isEmpty)
        #expect(await log.waitForDisconnect() == .serverClosed)
        server.stop()  // idempotent
        await #expect(throws: LedgerClientError.missing(path: path)) {
            try await LedgerClient.connect(to: path)
        }
        // The path is free for the next server.
        let next = try LedgerServer.start(at: path, ledger: ledger)
        next.stop()
    }

    @Test func releasingTheServerStopsIt() async throws {
        var server: LedgerServer? = try LedgerServer.start(at: path, ledger: ledger)
        let (_, log) = try await connect()
        await log.waitForSnapshot()
        #expect(server != nil && isSocket(path), "served while held")
        server = nil
        #expect(!isSocket(path))
        #expect(await log.waitForDisconnect() == .serverClosed)
    }

    /// Stopping removes only its own socket: one that replaced it at the path stays.
    @Test func stopLeavesAnotherServersSocketAlone() throws {
        let first = try LedgerServer.start(at: path, ledger: ledger)
        let moved = directory("moved.sock")
        #expect(rename(path, moved) == 0)
        let second = try LedgerServer.start(at: path, ledger: ledger)
        first.stop()
        #expect(isSocket(path), "the second server's socket")
        second.stop()
        #expect(!isSocket(path))
        unlink(moved)
    }
}

extension LedgerServerTests {
    /// The tests that measure the wall clock: `make test` runs them after the logic tests, apart.
    @Suite(.tags(.timing), .serialized) struct Timing {
        let base: LedgerServerTests

        init() throws { base = try LedgerServerTests() }

        /// Thousands of changes in a burst: a handful of snapshots, at least 100 ms apart, each a
        /// real one, the last with the last change. The system clock here, not a manual one: the
        /// snapshots' times are what shows their pace.
        @Test func aBurstOfChangesIsCoalescedToAtMostTenSnapshotsASecond() async throws {
            let ledger = Ledger()
            let server = try LedgerServer.start(at: base.path, ledger: ledger)
            defer { server.stop() }
            let (_, log) = try await base.connect()
            await log.waitForSnapshot()
            let start = ContinuousClock.now
            for change in 1...3_000 {
                ledger.note("\(change)")
                if change % 100 == 0 { await Task.yield() }
            }
            await log.waitForSnapshot { $0.notes.last == "3000" }
            let elapsed = ContinuousClock.now - start
            let paced = log.snapshots.dropFirst()
            #expect(
                paced.count <= 2 + Int(elapsed / .milliseconds(100)), "\(paced.count) snapshots in \(elapsed)"
            )
            #expect(paced.map(\.sequence) == Array(2..<2 + paced.count), "a fast client misses none")
            var previous = 0
            for snapshot in paced {
                // A real snapshot: the log's newest notes, consecutive, further along than the last one.
                let numbers = snapshot.notes.compactMap { Int($0) }
                #expect(numbers == Array((numbers.first ?? 0)..<(numbers.first ?? 0) + numbers.count))
                #expect((numbers.last ?? 0) > previous)
                previous = numbers.last ?? 0
            }
            for (earlier, later) in zip(paced, paced.dropFirst()) {
                #expect(later.time - earlier.time >= .milliseconds(99), "\(later.time - earlier.time) apart")
            }
        }

        /// The same loop, each client waiting for its first snapshot, on the wall clock: ten
        /// snapshots a second at most, as for changes.
        @Test func aConnectLoopIsPacedToTenSnapshotsASecond() async throws {
            let server = try LedgerServer.start(at: base.path, ledger: base.ledger)
            defer { server.stop() }
            let start = ContinuousClock.now
            var connections = 0
            while ContinuousClock.now - start < .seconds(1) {
                let (client, log) = try await base.connect()
                await log.waitForSnapshot()
                client.close()
                connections += 1
            }
            let elapsed = ContinuousClock.now - start
            let taken = try await server.inspect { $0.snapshotsTaken }
            #expect(
                taken <= 2 + Int(elapsed / .milliseconds(100)),
                "\(taken) snapshots for \(connections) clients in \(elapsed)")
        }
    }
}

/// Holds the thread that takes a snapshot until the test releases it. Thread-safe: a `Mutex`
/// guards whether a thread is held and whether it may go; the held thread waits on a semaphore.
private final class SnapshotHold: Sendable {
    private let state = Mutex<(holding: Bool, released: Bool)>((false, false))
    private let gate = DispatchSemaphore(value: 0)

    var isHolding: Bool { state.withLock { $0.holding } }

    /// Blocks the calling thread until ``release()`` — or ten minutes, so that a server that took
    /// its snapshots on its event loop fails the test instead of hanging it.
    func hold() {
        let wait = state.withLock { state -> Bool in
            state.holding = true
            return !state.released
        }
        if wait { _ = gate.wait(timeout: .now() + 600) }
    }

    func release() {
        state.withLock { $0.released = true }
        gate.signal()
    }
}
