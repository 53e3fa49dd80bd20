import OpenCombine
import Prometheus
import Tether
import TetherInspector
import TetherMetrics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Bind and end in turns within one process (`interleaved-lifetimes`): the Lifetimes suite's pair
// (a raw sink stored in a set ÷ a tracked DisposeBag), the Inspector suite's (a ledger served to
// no client ÷ one not served) and the MetricsReporting suite's (a ledger reported through
// swift-metrics to a Prometheus registry ÷ one not reported; unpaced here). By process, this
// machine spreads those pairs wider than their targets (Benchmarks/README.md); in turns a slow
// spell falls on both sides alike.

/// One owner's life, `owners` times a turn, each way, in turns, with ledgers on or off as
/// `ledger` is (the title `interleaved` prints says which).
func interleavedLifetimes(rounds: Int, ledger: Ledger) {
    let owners = 1_000
    let subject = PassthroughSubject<Int, Never>()
    let plain = Ledger(isEnabled: ledger.isEnabled)
    let served = Ledger(isEnabled: ledger.isEnabled)
    let stopServing = watch(served, .servedToNoClient)
    defer { stopServing() }
    let reported = Ledger(isEnabled: ledger.isEnabled)
    let stopReporting = watch(reported, .reportedToPrometheus)
    defer { stopReporting() }
    func binding(in ledger: Ledger) -> () -> Void {
        { bindAndEnd(owners, subject, in: ledger) }
    }
    interleaved(
        "Bind and end one subscription", rounds: rounds, operations: owners,
        [
            ("OpenCombine sink+store+cancel", { for _ in 0..<owners { _ = RawOwner(subject) } }),
            ("Tether DisposeBag", binding(in: plain)),
        ])
    interleaved(
        "Bind and end one subscription, ledger served", rounds: rounds, operations: owners,
        [("not served", binding(in: plain)), ("served, no client", binding(in: served))])
    interleaved(
        "Bind and end one subscription, ledger reported through swift-metrics", rounds: rounds,
        operations: owners,
        [("not reporting", binding(in: plain)), ("reporting", binding(in: reported))])
}

/// Binds and ends `count` owners' subscriptions to `subject`, one after the other, in `ledger`:
/// the Lifetimes suite's Tether side.
func bindAndEnd(_ count: Int, _ subject: PassthroughSubject<Int, Never>, in ledger: Ledger) {
    Ledger.$current.withValue(ledger) {
        for _ in 0..<count { _ = BagOwner(subject) }
    }
}

/// What watches a ledger in the Inspector suite (a server with no client) and the
/// MetricsReporting suite (a reporter to a Prometheus registry).
enum LedgerWatch {
    case servedToNoClient
    case reportedToPrometheus
}

/// Starts watching `ledger` as `how` says; returns what stops it. Exits, having said why, when
/// the ledger cannot be served.
func watch(_ ledger: Ledger, _ how: LedgerWatch) -> () -> Void {
    switch how {
    case .servedToNoClient:
        guard let serving = serveToNoClient(ledger) else { exit(1) }
        return serving.stop
    case .reportedToPrometheus:
        let reporting = ledger.reportMetrics(
            to: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
        return { reporting.cancel() }
    }
}

/// A ledger served on a socket in a temporary directory of its own.
private struct Serving {
    let server: LedgerServer
    let directory: String

    /// Stops serving and removes the socket and its directory.
    func stop() {
        server.stop()
        unlink(server.path)
        rmdir(directory)
    }
}

/// Serves `ledger` on a socket in a fresh temporary directory; nil, having said why, if it cannot.
private func serveToNoClient(_ ledger: Ledger) -> Serving? {
    var template = Array("/tmp/tether-profile.XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        print("cannot make a directory for the server's socket")
        return nil
    }
    let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    do {
        let server = try LedgerServer.start(at: directory + "/ledger.sock", ledger: ledger)
        return Serving(server: server, directory: directory)
    } catch {
        rmdir(directory)
        print("cannot serve the ledger: \(error)")
        return nil
    }
}
