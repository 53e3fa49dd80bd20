import Foundation
import TerminalUI
import TerminalUITesting
import TestSupport
import Testing
import Tether
import TetherInspector

@testable import Lab

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two real processes: a lab serving its ledger (`--serve`) and `tether-lab attach` watching it,
/// each on a pseudo-terminal. Every wait is a condition — text on a screen, a file appearing or
/// going — bounded by a generous timeout.
@Suite(.serialized) struct AttachEndToEndTests {
    static let enterAlternateScreen = "\u{1B}[?1049h"
    static let leaveAlternateScreen = "\u{1B}[?1049l"
    let directory: SocketDirectory

    init() throws {
        directory = try SocketDirectory()
    }

    var path: String { directory("lab.sock") }

    /// A leaky sheet presented and dismissed in the lab shows up in attach — as a leak group, then
    /// as its report; quitting the lab removes its socket and attach says it is disconnected.
    @Test func aLeakInTheServingLabAppearsInAttach() throws {
        let lab = try LabTerminal.serving(at: path)
        #expect(socketMode(path) == 0o600, "only this user can attach")
        let attach = try LabTerminal.attach(path)
        #expect(attach.readUntil(screenShows: "tether-lab  pid \(lab.pid)  ● connected"))

        lab.send(.character("m"))
        lab.send(.character("1"))
        #expect(lab.readUntil(screenShows: "Orientation (leaky)"))
        lab.send(.escape)
        #expect(
            attach.readUntil(screenShows: "OrientationViewModel ← task OrientationViewModel.swift:46"),
            "the leak group")
        #expect(attach.readUntil(screenShows: "leak found at"), "the leak message")
        #expect(attach.readUntil(screenShows: "▾ OrientationViewModel#1 LEAKED"))
        attach.send(.down)
        attach.send(.enter)
        #expect(attach.readUntil(screenShows: "Leak report — Esc closes"))
        #expect(attach.readUntil(screenShows: "fix: store the task in the owner's bag"))
        attach.send(.escape)
        attach.send(.down)
        attach.send(.left)
        #expect(
            attach.readUntil(screenShows: "> ▸ OrientationViewModel#1 LEAKED"), "← folds the selected owner")
        attach.send("/zzz")
        #expect(attach.readUntil(screenShows: "nothing matches"), "/ filters")
        attach.send(.escape)
        #expect(attach.readUntil(screenShows: "▸ OrientationViewModel#1 LEAKED"))

        lab.send(.character("q"))
        #expect(lab.waitForExit() == .exited(0))
        #expect(attach.readUntil { _ in socketMode(path) == nil }, "cleanup on quit")
        #expect(attach.readUntil(screenShows: "disconnected: the server closed the connection."))
        #expect(attach.readUntil(screenShows: "▸ OrientationViewModel#1 LEAKED"), "the last state stays")

        let mark = attach.output.count
        attach.send(.character("q"))
        #expect(attach.waitForExit() == .exited(0))
        #expect(attach.outputText(since: mark).contains(Self.leaveAlternateScreen))
        #expect(attach.isCooked)
    }

    /// Three leaky visits of the accumulation sheet in the serving lab: attach lists the growing
    /// site above the leaks, and Enter opens its report.
    @Test func aGrowingSiteInTheServingLabAppearsInAttach() throws {
        let lab = try LabTerminal.serving(at: path)
        let attach = try LabTerminal.attach(path)
        #expect(attach.readUntil(screenShows: "tether-lab  pid \(lab.pid)  ● connected"))
        lab.send(.character("m"))
        for _ in 0..<3 {
            lab.send(.character("7"))
            #expect(lab.readUntil(screenShows: "Accumulation (leaky)"))
            lab.send(.escape)
            #expect(lab.readUntil(screenShows: "> 7  Accumulation"))
        }
        #expect(attach.readUntil(screenShows: "Growing: 1 site"))
        #expect(attach.readUntil(screenShows: "AppSession#1 ← AccumulationViewModel.swift:"))
        #expect(attach.readUntil(screenShows: "3 live +1/rep"))
        attach.send(.down)
        attach.send(.enter)
        #expect(attach.readUntil(screenShows: "Growth report — Esc closes"))
        #expect(attach.readUntil(screenShows: "AppSession#1 grows: 3 subscriptions"))
        lab.send(.character("q"))
        #expect(lab.waitForExit() == .exited(0))
        attach.send(.escape)
        attach.send(.character("q"))
        #expect(attach.waitForExit() == .exited(0))
    }

    /// A lab killed outright leaves its socket behind: attach shows the banner; the next lab at
    /// the path replaces the stale socket, and attach reconnects by itself.
    @Test func aKilledLabGivesTheBannerAndTheNextOneIsReconnectedTo() throws {
        let first = try LabTerminal.serving(at: path)
        let attach = try LabTerminal.attach(path)
        first.signal(SIGKILL)
        #expect(first.waitForExit() == .signaled(SIGKILL))
        #expect(attach.readUntil(screenShows: "● disconnected"))
        #expect(socketMode(path) != nil, "the killed lab's socket is stale")
        #expect(
            attach.readUntil(screenShows: "connection refused (nothing serves it: a stale socket?)"),
            "the retries say why")

        let second = try LabTerminal.serving(at: path)
        #expect(attach.readUntil(screenShows: "tether-lab is back (pid \(second.pid), was \(first.pid))"))
        second.send(.character("1"))
        #expect(attach.readUntil(screenShows: "OrientationViewModel#1 alive"), "the new lab's ledger")

        let mark = attach.output.count
        attach.signal(SIGTERM)
        let end = attach.waitForExit()
        #expect(end == .signaled(SIGTERM) || end == .exited(128 + SIGTERM))
        #expect(attach.outputText(since: mark).contains(Self.leaveAlternateScreen))
        #expect(attach.isCooked)
        second.send(.character("q"))
        #expect(second.waitForExit() == .exited(0))
    }

    /// Ctrl-Z stops attach as it stops the lab; `fg` brings it back connected and redrawn.
    @Test func ctrlZStopsAttachAndFgBringsItBack() async throws {
        let lab = try await HeadlessServingLab(keys: "1", serving: path)
        let job = try LabTerminal.job(["attach", path])
        #expect(job.readUntil(screenShows: "● connected"))
        #expect(job.readUntil(screenShows: "OrientationViewModel#1 alive"))
        LabTerminal.expectStopAndFgRedraw(job, showing: "OrientationViewModel#1 alive")
        #expect(job.readUntil(screenShows: "● connected"))
        job.send(.character("q"))
        #expect(job.readUntil(outputContains: PseudoTerminal.jobExited + "0]"))
        #expect(job.waitForExit() == .exited(0))
        #expect(job.isCooked)
        #expect(lab.stop() == 0)
    }

    /// `--dump json` against a headless lab that serves the state its keys left.
    @Test func attachDumpsOneSnapshotAsJSON() async throws {
        let lab = try await HeadlessServingLab(keys: "m 1 r Esc wait:400 r", serving: path)
        let result = try LabBinary.run(["attach", path, "--dump", "json"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let dump = try JSONDecoder().decode(AttachDump.self, from: Data(result.stdout.utf8))
        #expect(dump.process == "tether-lab" && dump.pid == lab.pid)
        #expect(
            dump.counters.leaks == 1,
            "(zombies are left out: the dead loop counts them on a thread of its own)")
        #expect(dump.owners.map(\.state) == ["leaked"])
        #expect(dump.owners.first?.entries.first?.kind == "task")
        #expect(dump.leaks.first?.owner == "OrientationViewModel#1")
        #expect(dump.leaks.first?.site.hasPrefix("OrientationViewModel.swift:") == true)
        #expect(dump.leaks.first?.signature?.hasPrefix("OrientationViewModel ← task Lab/") == true)
        #expect(lab.stop() == 0)
        #expect(socketMode(path) == nil, "the headless lab removes its socket when its input ends")
    }

    /// A signal that tells a serving headless lab to stop — a closed terminal's SIGHUP among
    /// them — stops it as the end of its input does: its socket removed, exit code 0.
    @Test(arguments: [SIGHUP, SIGTERM, SIGINT])
    func aServingHeadlessLabStoppedByASignalRemovesItsSocket(signal: Int32) async throws {
        let lab = try await HeadlessServingLab(keys: "1", serving: path)
        #expect(lab.stop(signal: signal) == 0)
        #expect(socketMode(path) == nil, "its socket removed")
    }

    /// Input that is empty from the start (`/dev/null`, as under `nohup` or in CI): the headless
    /// lab prints its state, stops serving and exits.
    @Test func aServingHeadlessLabWhoseInputIsEmptyExits() throws {
        let lab = try ChildProcess(LabBinary.path, ["--headless", "--keys", "1", "--serve", path])
        #expect(lab.waitForExit(within: .seconds(20)) == 0)
        #expect(lab.output.contains("\"stack\""), "its state, printed first")
        #expect(socketMode(path) == nil, "its socket removed")
    }

    /// `--dump json` of a lab whose accumulation sheet was visited three times, leaky: the
    /// growing site, with its signature, and no leak.
    @Test func attachDumpsGrowth() async throws {
        let lab = try await HeadlessServingLab(keys: "m 7 Esc 7 Esc 7 Esc wait:400", serving: path)
        let result = try LabBinary.run(["attach", path, "--dump", "json"])
        #expect(result.status == 0)
        let dump = try JSONDecoder().decode(AttachDump.self, from: Data(result.stdout.utf8))
        #expect(dump.leaks.isEmpty)
        #expect(dump.growth.map(\.owner) == ["AppSession#1"])
        #expect(dump.growth.map(\.kind) == ["subscription"])
        #expect(dump.growth.map(\.live) == [3])
        #expect(dump.growth.first?.site.hasPrefix("AccumulationViewModel.swift:") == true)
        #expect(dump.growth.first?.signature.hasPrefix("AppSession grows subscription Lab/") == true)
        #expect(lab.stop() == 0)
    }

    /// Through a symbolic link to the socket, as any Unix client goes.
    @Test func attachFollowsASymbolicLinkToTheSocket() async throws {
        let lab = try await HeadlessServingLab(keys: "", serving: path)
        let link = directory("link.sock")
        #expect(symlink(path, link) == 0)
        let result = try LabBinary.run(["attach", link, "--dump", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let dump = try JSONDecoder().decode(AttachDump.self, from: Data(result.stdout.utf8))
        #expect(dump.process == "tether-lab" && dump.pid == lab.pid)
        #expect(lab.stop() == 0)
    }

    /// A hundred `attach --dump json` at once against a ledger of 2,000 owners, three rounds:
    /// each waits its turn — a full queue of connections is tried again, a server serving its
    /// most clients leaves the next ones queued, a server busy taking snapshots says hello late —
    /// and each prints the whole ledger. Some 60 s of CPU: it runs only when `TETHER_STRESS` is
    /// set, so that it does not skew the wake-up counts of the idleness tests running beside it.
    /// (`LedgerClientTests` and `LedgerServerTests` prove the waiting itself on every run.)
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TETHER_STRESS"] != nil, "set TETHER_STRESS"))
    func aHundredAttachesAtOnceAllDumpTheLedger() async throws {
        let ledger = Ledger(clock: ManualClock())
        let subject = PassthroughSubject<Int, Never>()
        let owners = Ledger.$current.withValue(ledger) { (0..<2_000).map { _ in DumpedOwner(subject) } }
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        var failures: [String: Int] = [:]
        for _ in 0..<3 {
            let attaches = try (0..<100).map { _ in
                try ChildProcess(LabBinary.path, ["attach", path, "--dump", "json"])
            }
            for attach in attaches {
                let result = attach.finish()
                let dump = try? JSONDecoder().decode(AttachDump.self, from: Data(result.stdout.utf8))
                if result.status != 0 || dump?.owners.count != 2_000 {
                    failures["exit \(result.status): \(result.stderr)", default: 0] += 1
                }
            }
        }
        let failed = failures.values.reduce(0, +)
        #expect(failed == 0, "\(failed) of 300 failed: \(failures)")
        withExtendedLifetime(owners) {}
    }

    /// What attach says for each bad input: one line on stderr, exit code 2, nothing on stdout.
    func expectOneLineError(
        _ arguments: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let result = try LabBinary.run(arguments)
        #expect(result.status == 2, sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(result.stderr.contains(expected), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func badPathsAreOneLineAndExitTwo() async throws {
        try expectOneLineError(
            ["attach", path, "--dump", "json"], "tether-lab attach: \(path): no such file")
        #expect(FileManager.default.createFile(atPath: directory("plain"), contents: Data()))
        try expectOneLineError(["attach", directory("plain"), "--dump", "json"], "is not a socket")
        try expectOneLineError(["attach", directory.path, "--dump", "json"], "is not a socket")
        try expectOneLineError(["attach", "--dump", "json"], "missing expected argument '<path>'")
        try expectOneLineError(["attach", path, "--dump", "xml"], "the value 'xml' is invalid")
        let serving = try await HeadlessServingLab(keys: "", serving: path)
        try expectOneLineError(
            ["attach", path], "tether-lab attach: standard input is not a terminal; run with --dump json")
        try expectOneLineError(
            ["--headless", "--serve", path], "tether-lab: --serve: \(path) is served by another live process")
        #expect(serving.stop() == 0)
    }

    @Test func peersThatAreNotLedgerServersOfThisVersionAreOneLineAndExitTwo() throws {
        let future = try FakePeer(
            path: directory("future.sock"),
            sends: Array(#"{"type":"hello","version":2,"pid":1,"process":"future"}"#.utf8) + [10])
        try expectOneLineError(
            ["attach", future.path, "--dump", "json"], "the server speaks inspector protocol version 2")
        let garbage = try FakePeer(
            path: directory("garbage.sock"), sends: Array("HTTP/1.1 200 OK\r\n\n".utf8))
        try expectOneLineError(
            ["attach", garbage.path, "--dump", "json"],
            "tether-lab attach: \(garbage.path) answered with something other than a hello: not a Tether ledger server"
        )
        // A peer that closes before its hello may be a ledger server stopping: not called foreign.
        let closing = try FakePeer(path: directory("closing.sock"), sends: [], thenCloses: true)
        try expectOneLineError(
            ["attach", closing.path, "--dump", "json"],
            "tether-lab attach: \(closing.path) closed the connection before saying hello (is the server stopping?)"
        )
        let flood = try FakePeer(
            path: directory("flood.sock"),
            sends: [UInt8](repeating: UInt8(ascii: "x"), count: LedgerClient.defaultMaximumLineLength + 1024))
        try expectOneLineError(["attach", flood.path, "--dump", "json"], "a line longer than")
        let hello = Array(#"{"type":"hello","version":1,"pid":1,"process":"p"}"#.utf8) + [10]
        let broken = try FakePeer(
            path: directory("broken.sock"), sends: hello + Array(#"{"type":"snapshot"}"#.utf8) + [10])
        try expectOneLineError(
            ["attach", broken.path, "--dump", "json"], "malformed line: snapshot: missing")
    }

    /// Root passes any permission check, so as root the test attaches as `nobody` (setpriv); as
    /// another user, to a socket made unreadable.
    @Test func permissionDeniedIsOneLineAndExitTwo() async throws {
        let serving = try await HeadlessServingLab(keys: "", serving: path)
        defer { #expect(serving.stop() == 0) }
        if geteuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv, to drop root")
            let result = try ChildProcess(
                setpriv,
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", "--", LabBinary.path, "attach", path,
                    "--dump", "json",
                ], captureOutput: false
            ).finish()
            #expect(result.status == 2)
            #expect(
                result.stderr == "tether-lab attach: \(path): permission denied (another user's socket?)\n")
        } else {
            chmod(path, 0)
            try expectOneLineError(["attach", path, "--dump", "json"], "permission denied")
        }
    }

    /// On a terminal, a bad input is reported before the terminal is taken: no full-screen mode,
    /// the terminal as it was.
    @Test func aBadInputLeavesTheTerminalAlone() throws {
        let peer = try FakePeer(
            path: directory("future.sock"),
            sends: Array(#"{"type":"hello","version":9,"pid":1,"process":"future"}"#.utf8) + [10])
        for target in [path, peer.path] {
            let attach = try LabTerminal.start(["attach", target])
            #expect(attach.waitForExit() == .exited(2))
            #expect(!attach.outputText.contains(Self.enterAlternateScreen))
            #expect(attach.outputText.contains("tether-lab attach: "))
            #expect(attach.isCooked)
        }
    }
}

/// An owner with a subscription bound to its bag: one of the many in a big served ledger.
private final class DumpedOwner {
    let bag = DisposeBag()

    init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        events.sink { _ in }.store(boundTo: bag)
    }
}
