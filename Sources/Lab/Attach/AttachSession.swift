import TerminalUI
import TetherInspector

/// Keeps attach fed: reads a connection's events into the ``AttachApp``, and when the connection
/// ends, connects to the same path again — soon at first, then less often, up to every
/// ``maximumDelay`` — until it succeeds, for as long as attach runs.
///
/// Everything runs on the main actor, connecting included (`LedgerClient.connect` runs on its
/// caller's actor): attach never starts Swift's global executor, whose pool monitor would wake
/// it every second on Linux. While connected it waits on the events and nothing else; the
/// retries are the application's wake-ups, and only while disconnected.
/// Main-actor isolated; lives as long as attach runs.
@MainActor
public final class AttachSession {
    /// The wait before the first retry after a disconnection; each failed retry doubles it.
    public static let firstDelay: Duration = .milliseconds(250)
    /// The longest wait between two retries.
    public static let maximumDelay: Duration = .seconds(3)

    public let app: AttachApp
    private var delay = AttachSession.firstDelay
    private var reading: Task<Void, Never>?

    public init(app: AttachApp) {
        self.app = app
    }

    /// Starts reading `client`'s events (the connection `main` made, whose hello the app shows).
    public func start(with client: LedgerClient) {
        read(client)
    }

    private func read(_ client: LedgerClient) {
        reading = Task { [weak self] in
            for await event in client.events {
                self?.app.receive(event)
            }
            self?.scheduleRetry()
        }
    }

    private func scheduleRetry() {
        let wait = delay
        delay = min(delay * 2, AttachSession.maximumDelay)
        app.application.schedule(after: wait) { [weak self] in
            guard let self else { return }
            Task { await self.retry() }
        }
    }

    private func retry() async {
        do {
            let client = try await LedgerClient.connect(to: app.path)
            delay = AttachSession.firstDelay
            app.connected(client.hello)
            read(client)
        } catch {
            app.retryFailed(error)
            scheduleRetry()
        }
    }
}
