import Dispatch
import Foundation
import Lab
import TerminalUI
import Tether
import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts serving `ledger` at `path` for `--serve`, or prints why it cannot and exits with code 2.
func startServing(_ ledger: Ledger, at path: String) -> LedgerServer {
    do {
        return try LedgerServer.start(at: path, ledger: ledger)
    } catch {
        Terminal.printError("tether-lab: --serve: \(error)")
        exit(2)
    }
}

/// Returns when standard input ends (end-of-file, or an error) or SIGINT or SIGTERM arrives: how
/// a headless lab that serves is told to stop. Sleeps meanwhile: a thread blocked reading the
/// input (a Dispatch read source cannot watch every input: on Linux, epoll refuses `/dev/null`
/// and regular files), and signal sources on the main queue; nothing polls.
@MainActor
func waitForEndOfInputOrSignal() async {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let waiter = EndWaiter(continuation)
        waiter.interrupt.setEventHandler { MainActor.assumeIsolated { waiter.finish() } }
        waiter.terminate.setEventHandler { MainActor.assumeIsolated { waiter.finish() } }
        waiter.start()
        Thread {
            var bytes = [UInt8](repeating: 0, count: 512)
            while true {
                let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            DispatchQueue.main.async { waiter.finish() }
        }.start()
    }
}

/// The signal sources ``waitForEndOfInputOrSignal()`` sleeps on, and the continuation it resumes
/// once. Main-actor isolated: every handler runs on the main queue.
@MainActor
private final class EndWaiter {
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
    let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
    private var continuation: CheckedContinuation<Void, Never>?

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func start() {
        interrupt.resume()
        terminate.resume()
    }

    func finish() {
        guard let continuation else { return }
        self.continuation = nil
        interrupt.cancel()
        terminate.cancel()
        continuation.resume()
    }
}
