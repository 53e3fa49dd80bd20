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
    guard let serving = serveToNoClient(served) else { return }
    defer { serving.stop() }
    let reported = Ledger(isEnabled: ledger.isEnabled)
    let reporting = reported.reportMetrics(
        to: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
    defer { reporting.cancel() }
    func binding(in ledger: Ledger) -> () -> Void {
        { Ledger.$current.withValue(ledger) { for _ in 0..<owners { _ = BagOwner(subject) } } }
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

/// Who watches the ledger of `bindAndEnd(_:_:_:)`: the Inspector suite's and the MetricsReporting
/// suite's two sides.
enum LedgerWatch {
    case none
    case servedToNoClient
    case reportedToPrometheus
}

/// Binds and ends `count` owners' subscriptions, one after the other, in a ledger that `watch`
/// watches, for callgrind: the instructions of the server's or the reporter's threads count too.
func bindAndEnd(_ count: Int, _ subject: PassthroughSubject<Int, Never>, watchedBy watch: LedgerWatch) {
    let ledger = Ledger()
    let stop: () -> Void
    switch watch {
    case .none:
        stop = {}
    case .servedToNoClient:
        guard let serving = serveToNoClient(ledger) else { exit(1) }
        stop = serving.stop
    case .reportedToPrometheus:
        let reporting = ledger.reportMetrics(
            to: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
        stop = { reporting.cancel() }
    }
    Ledger.$current.withValue(ledger) {
        for _ in 0..<count { _ = BagOwner(subject) }
    }
    stop()
    print(ledger.counters)
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
