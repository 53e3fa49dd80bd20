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

/// How a headless lab that serves is told to stop: its standard input ends (end-of-file, or an
/// error; not watched in a background job, whose terminal it must not read), or SIGINT, SIGTERM
/// or SIGHUP arrives. Made before the lab runs its keys, so that a signal meanwhile stops it the
/// same way, with its socket removed. Sleeps while it waits: a thread blocked reading the input
/// (a Dispatch read source cannot watch every input: on Linux, epoll refuses `/dev/null` and
/// regular files), and signal sources on the main queue. Main-actor isolated: every handler runs
/// on the main queue.
@MainActor
final class ServingStop {
    private let sources: [any DispatchSourceSignal]
    private var stopped = false
    private var continuation: CheckedContinuation<Void, Never>?

    init() {
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .main)
        }
        for source in sources {
            source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.stop() } }
            source.resume()
        }
    }

    /// Returns once the input ends or a signal came, now or before.
    func wait() async {
        guard !stopped else { return }
        // A background job must not read its terminal: SIGTTIN would stop the whole process,
        // server and all. It waits for a signal alone.
        let isBackgroundJob = isatty(STDIN_FILENO) == 1 && tcgetpgrp(STDIN_FILENO) != getpgrp()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.continuation = continuation
            guard !isBackgroundJob else { return }
            Thread {
                var bytes = [UInt8](repeating: 0, count: 512)
                while true {
                    let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                    if count == 0 || (count < 0 && errno != EINTR) { break }
                }
                DispatchQueue.main.async { MainActor.assumeIsolated { self.stop() } }
            }.start()
        }
    }

    private func stop() {
        guard !stopped else { return }
        stopped = true
        for source in sources { source.cancel() }
        continuation?.resume()
        continuation = nil
    }
}
