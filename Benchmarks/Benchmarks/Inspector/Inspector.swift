import Benchmark
import Foundation
import OpenCombine
import Support
import Synchronization
import Tether
import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What serving a ledger (TetherInspector's LedgerServer) costs the program that binds and ends.
// One operation = one owner's life, as in Lifetimes: made, one subscription stored in its tracked
// bag, released. The server, and the client, exist only while their benchmark runs (setup and
// teardown): each benchmark runs in a process of its own, which registers every benchmark.

let benchmarks: @Sendable () -> Void = {
    // With a server nobody has attached to, against no server: the server does not observe the
    // ledger until a client comes, so the two should read the same.
    for served in [false, true] {
        let ledger = Ledger()
        let serving = Serving()
        Benchmark(
            "serve/bind-and-end/\(served ? "server, no client" : "no server") ledger on",
            configuration: budget(scaling: .kilo),
            closure: { benchmark in
                let subject = PassthroughSubject<Int, Never>()
                Ledger.$current.withValue(ledger) {
                    for _ in benchmark.scaledIterations {
                        blackHole(BagOwner(subject))
                    }
                }
            },
            setup: { if served { try await serving.start(ledger: ledger, attach: false) } },
            teardown: { serving.stop() })
    }

    // At 10,000 bindings a second, the ledger changing all the time: with a client attached, the
    // server takes ten snapshots a second (each under the ledger's lock) and sends them; against
    // no server. One sample = one owner's life; the wait for its slot, 100 µs after the last
    // one's, is not measured. The p99 shows a binding that met a snapshot.
    for attached in [false, true] {
        let ledger = Ledger()
        let serving = Serving()
        let pace = Pace(every: .microseconds(100))
        Benchmark(
            "serve/bind-and-end at 10,000 a second/\(attached ? "client attached" : "no server") ledger on",
            configuration: budget(seconds: 2, iterations: 10_000),
            closure: { benchmark in
                let subject = PassthroughSubject<Int, Never>()
                pace.waitForSlot()
                benchmark.startMeasurement()
                Ledger.$current.withValue(ledger) {
                    blackHole(BagOwner(subject))
                }
                benchmark.stopMeasurement()
            },
            setup: { if attached { try await serving.start(ledger: ledger, attach: true) } },
            teardown: {
                if attached { precondition(serving.snapshotsReceived > 1, "the client saw no change") }
                serving.stop()
            })
    }
}

/// A server on a socket in a fresh directory, and a client that reads every snapshot, for the
/// length of one benchmark. Sendable through its `Mutex`.
final class Serving: Sendable {
    private struct State {
        var directory: String?
        var server: LedgerServer?
        var client: LedgerClient?
        var reader: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let received = Atomic<Int>(0)

    var snapshotsReceived: Int { received.load(ordering: .relaxed) }

    func start(ledger: Ledger, attach: Bool) async throws {
        // A short path: a socket's address holds about 100 bytes.
        var template = Array((FileManager.default.temporaryDirectory.path + "/bench.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CocoaError(.fileWriteUnknown)
        }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let server = try LedgerServer.start(at: directory + "/bench.sock", ledger: ledger)
        var client: LedgerClient?
        var reader: Task<Void, Never>?
        if attach {
            let connected = try await LedgerClient.connect(to: server.path)
            reader = Task { [self] in
                for await event in connected.events {
                    if case .snapshot = event { received.add(1, ordering: .relaxed) }
                }
            }
            client = connected
        }
        state.withLock { [client, reader] in
            $0 = State(directory: directory, server: server, client: client, reader: reader)
        }
    }

    func stop() {
        let stopped = state.withLock { state in
            defer { state = State() }
            return state
        }
        stopped.client?.close()
        stopped.reader?.cancel()
        stopped.server?.stop()
        if let directory = stopped.directory { try? FileManager.default.removeItem(atPath: directory) }
    }
}
