import Dispatch
import TerminalUI
import TetherInspector

/// Keeps attach fed: connects to the path, hands the connection's events to the ``AttachApp``,
/// and when the connection ends, connects again — soon at first, then less often, up to every
/// ``maximumDelay`` — until it succeeds, for as long as attach runs.
///
/// No Swift concurrency here: the connection's events come on the main queue through
/// `LedgerClient`'s callback `connect`, and the retries are the application's wake-ups. On Linux
/// resuming any `await` from another thread goes through Swift's global executor, whose first
/// use starts Dispatch's worker pool, whose monitor then wakes the process every second — so
/// attach awaits nothing, and while connected and nothing changes, it does not wake at all.
/// Main-actor isolated; lives as long as attach runs.
@MainActor
public final class AttachSession {
    /// The wait before the first retry after a disconnection; each failed retry doubles it.
    public static let firstDelay: Duration = .milliseconds(250)
    /// The longest wait between two retries.
    public static let maximumDelay: Duration = .seconds(3)

    public let path: String
    /// The attach this session feeds, once the first connection made it.
    public private(set) var app: AttachApp?
    private var client: LedgerClient?
    private var delay = AttachSession.firstDelay
    /// Bumped by each connection, so that a late event of an old one is dropped.
    private var generation = 0

    public init(path: String) {
        self.path = path
    }

    /// Connects for the first time: `connected` gets the server's hello — and makes the app
    /// (``attach(_:)``) before any event is delivered — or gets why the connection failed.
    public func connect(_ connected: @escaping @MainActor (Result<InspectorHello, LedgerClientError>) -> Void)
    {
        open { result in connected(result.map(\.hello)) }
    }

    /// Feeds `app` from now on.
    public func attach(_ app: AttachApp) {
        self.app = app
    }

    private func open(_ done: @escaping @MainActor (Result<LedgerClient, LedgerClientError>) -> Void) {
        generation += 1
        let current = generation
        LedgerClient.connect(
            to: path, queue: .main,
            events: { [weak self] event in
                MainActor.assumeIsolated {
                    guard let self, self.generation == current else { return }
                    self.app?.receive(event)
                    // Closed by this side: attach is quitting, nothing to come back to.
                    if case .disconnected(let reason) = event, reason != .closedByClient {
                        self.scheduleRetry()
                    }
                }
            },
            completion: { [weak self] result in
                MainActor.assumeIsolated {
                    if case .success(let client) = result { self?.client = client }
                    done(result)
                }
            })
    }

    private func scheduleRetry() {
        guard let app else { return }
        let wait = delay
        delay = min(delay * 2, AttachSession.maximumDelay)
        app.application.schedule(after: wait) { [weak self] in self?.retry() }
    }

    private func retry() {
        open { [weak self] result in
            guard let self, let app else { return }
            switch result {
            case .success(let client):
                delay = AttachSession.firstDelay
                app.connected(client.hello)
            case .failure(let error):
                app.retryFailed(error)
                scheduleRetry()
            }
        }
    }

    /// Closes the connection (attach is quitting).
    public func close() {
        client?.close()
    }
}
