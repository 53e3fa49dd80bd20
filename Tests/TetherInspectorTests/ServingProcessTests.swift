import Foundation
import TestSupport
import Testing
import Tether

@testable import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server in another process (`inspector-demo`): attaching to it, its socket's fate when it
/// exits or is killed, and its idleness.
@Suite struct ServingProcessTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    var path: String { directory("demo.sock") }

    @Test func attachesToAnotherProcessAndFollowsItsLedger() async throws {
        let demo = try await DemoProcess(serving: path)
        let client = try await LedgerClient.connect(to: path)
        #expect(client.hello == InspectorHello(pid: demo.pid, process: "inspector-demo"))
        let log = EventLog(client)
        await demo.send("bind 3")
        let bound = await log.waitForSnapshot { $0.owners.count == 3 }
        #expect(bound?.owners.map(\.id.description) == ["DemoOwner#1", "DemoOwner#2", "DemoOwner#3"])
        #expect(bound?.owners.first?.entries.map(\.kind) == [.subscription])
        #expect(bound?.owners.first?.site.file == "main.swift")
        await demo.send("end")
        await log.waitForSnapshot { $0.owners.isEmpty && $0.counters.subscriptions == 0 }
        #expect(await demo.sendExit() == 0)
    }

    @Test func aSocketAnotherProcessServesIsRefused() async throws {
        let demo = try await DemoProcess(serving: path)
        #expect(throws: LedgerServerError.alreadyServed(path: path)) {
            try LedgerServer.start(at: path, ledger: Ledger(clock: ManualClock()))
        }
        #expect(isSocket(path))
        #expect(try await LedgerClient.connect(to: path).hello.pid == demo.pid, "still served")
        #expect(await demo.sendExit() == 0)
    }

    /// Four processes start serving at one path at once, round after round: in each, one serves
    /// and the others exit saying the path is served.
    @Test func ofProcessesStartingAtOnceAtOnePathExactlyOneServes() async throws {
        for round in 0..<5 {
            let path = directory("race\(round).sock")
            let demos = try (0..<4).map { _ in try DemoProcess(starting: path) }
            for demo in demos { await demo.waitForStart() }
            let serving = demos.filter { $0.text.contains("serving \(path)") }
            #expect(serving.count == 1, "round \(round): \(serving.count) serve")
            for demo in demos where !demo.text.contains("serving") {
                #expect(await demo.waitForExit() == 2)
            }
            if let winner = serving.first {
                #expect(try await LedgerClient.connect(to: path).hello.pid == winner.pid)
            }
            for demo in serving { #expect(await demo.sendExit() == 0) }
        }
        #expect(directory.names.isEmpty)
    }

    /// A normal exit removes the socket, through the exit hook: nobody called `stop()`.
    @Test func theSocketGoesWhenTheProcessExits() async throws {
        let demo = try await DemoProcess(serving: path)
        let log = EventLog(try await LedgerClient.connect(to: path))
        await log.waitForSnapshot()
        #expect(await demo.sendExit() == 0)
        #expect(!isSocket(path))
        #expect(directory.names.isEmpty)
        #expect(await log.waitForDisconnect() == .serverClosed)
    }

    @Test func stoppingRemovesTheSocketWhileTheProcessRuns() async throws {
        let demo = try await DemoProcess(serving: path)
        await demo.send("stop")
        #expect(!isSocket(path))
        #expect(await demo.sendExit() == 0)
    }

    /// A killed process leaves its socket behind: refused to a client, replaced by the next server.
    @Test func aKilledServersSocketIsReplaced() async throws {
        let demo = try await DemoProcess(serving: path)
        let log = EventLog(try await LedgerClient.connect(to: path))
        await log.waitForSnapshot()
        demo.deliver(signal: SIGKILL)
        _ = await demo.waitForExit()
        #expect(await log.waitForDisconnect() == .serverClosed)
        #expect(isSocket(path), "stale")
        await #expect(throws: LedgerClientError.connectionRefused(path: path)) {
            try await LedgerClient.connect(to: path)
        }
        let next = try await DemoProcess(serving: path)
        #expect(try await LedgerClient.connect(to: path).hello.pid == next.pid)
        #expect(await next.sendExit() == 0)
    }
}

// Linux only (it reads /proc), and not under TSan, whose runtime wakes a thread of its own.
#if os(Linux) && !TETHER_TSAN
extension ServingProcessTests {
    /// The tests that measure the wall clock: `make test` runs them after the logic tests, apart.
    @Suite(.tags(.timing), .serialized) struct Timing {
        let base: ServingProcessTests

        init() throws { base = try ServingProcessTests() }

        /// Idle costs nothing: a serving process whose ledger does not change wakes none of its
        /// threads — with no client, and with a client attached after changes. The windows are the
        /// one wait here that is not a condition: idleness is what they measure.
        @Test func anIdleServingProcessWakesNoThread() async throws {
            let demo = try await DemoProcess(serving: base.path)
            #expect(try await wakeUps(of: demo) == 0, "with no client")

            let log = EventLog(try await LedgerClient.connect(to: base.path))
            await demo.send("bind 2")
            await demo.send("note changed")
            await log.waitForSnapshot { $0.notes == ["changed"] && $0.owners.count == 2 }
            #expect(try await wakeUps(of: demo) == 0, "with a client attached, after changes")
            #expect(demo.threadCount >= 2, "the event loop threads were counted too")
            #expect(await demo.sendExit() == 0)
        }

        /// The process's voluntary context switches, all threads, over 1.5 s of quiet (after 300 ms
        /// for the last writes and reads to finish).
        func wakeUps(of demo: DemoProcess) async throws -> Int {
            try await Task.sleep(for: .milliseconds(300))
            let before = try #require(demo.voluntaryContextSwitches)
            try await Task.sleep(for: .milliseconds(1500))
            let after = try #require(demo.voluntaryContextSwitches)
            return after - before
        }
    }
}
#endif
