import Foundation
import TerminalUI
import Tether
import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tether-lab attach PATH`: the lab's inspector, full screen, for another process — fed by the
/// snapshots its ``LedgerServer`` sends instead of by the lab's own ledger.
///
/// The header names the process, its pid and the connection; a second line says what just
/// happened: the last change seen, a leak just found, the connection lost (the last state stays
/// on screen) or regained. ``AttachSession`` feeds it (``connected(_:)``, ``receive(_:)``,
/// ``retryFailed(_:)``); tests may feed it directly on a `TestBackend`. Keys: the inspector's
/// (↑/↓, Enter, ←/→, `/`), the mouse wheel, `?` help, `q` quits.
///
/// Nothing here runs unless an event or a key comes: frames are drawn when one did.
/// Main-actor isolated; lives as long as its application runs.
@MainActor
public final class AttachApp {
    /// Below this size attach shows how big the terminal must be.
    public static let minimumSize = Size(width: 64, height: 16)

    /// Where attach is with the process.
    public enum Connection: Equatable, Sendable {
        case connected(InspectorHello)
        /// Lost: why, the hello of the process that was there, and why the last retry failed.
        case disconnected(reason: String, last: InspectorHello, retry: String?)
    }

    /// What the status line says, besides the connection.
    enum Note: Equatable {
        case lastChange(Date)
        case leakFound(InspectorLeakReport, Date)
        case reconnected(InspectorHello, was: InspectorHello, Date)
    }

    public let application: Application
    public let path: String
    public let keyMap: KeyMap
    public private(set) var connection: Connection
    let inspector = Inspector(ownersLabel: "owners")
    private(set) var note: Note?
    /// Screens' lifecycles need a ledger; attach's own screens bind nothing worth recording.
    let ledger = Ledger(isEnabled: false)
    private var screen: AttachScreen?

    /// Builds attach for the process at `path` that said `hello`.
    public init(
        backend: any Backend, path: String, hello: InspectorHello, theme: Theme = .standard,
        keyMap: KeyMap = .bundled
    ) {
        self.path = path
        self.keyMap = keyMap
        connection = .connected(hello)
        let screen = AttachScreen(ledger: ledger)
        application = Application(
            backend: backend, root: screen, theme: theme, minimumSize: AttachApp.minimumSize)
        screen.app = self
        self.screen = screen
        application.onKey(.character("?")) { [unowned self] _ in toggleHelp() }
        application.onKey(.character("q")) { $0.quit() }
        application.header = Application.Header(height: 2) { [weak self] buffer, area, theme in
            self?.renderHeader(into: &buffer, area: area, style: LabStyle(theme: theme))
        }
        application.footerHints = { [weak self] screen in
            guard let self else { return [] }
            let context: KeyMap.Context =
                switch screen {
                case is HelpScreen: .help
                case is LeakReportScreen, is GrowthReportScreen: .report
                default: inspector.isEditingFilter ? .filter : .attach
                }
            return keyMap.hints(for: context)
        }
    }

    // MARK: Feeding

    /// The process at the path said hello again (after a disconnection): a new connection.
    public func connected(_ hello: InspectorHello) {
        if case .disconnected(_, let last, _) = connection {
            note = .reconnected(hello, was: last, Date())
            if hello.pid != last.pid { inspector.forgetHistory() }
        }
        connection = .connected(hello)
        fitHeader()
        application.setNeedsDisplay()
    }

    /// An event of the connection: a snapshot, a leak just found, or its end.
    public func receive(_ event: LedgerClient.Event) {
        switch event {
        case .snapshot(let snapshot):
            inspector.update(snapshot)
            if note == nil || note.map(isChangeNote) == true { note = .lastChange(Date()) }
        case .leak(let report):
            note = .leakFound(report, Date())
        case .disconnected(let reason):
            guard case .connected(let hello) = connection else { return }
            connection = .disconnected(reason: reason.description, last: hello, retry: nil)
            note = nil
            fitHeader()
        }
        application.setNeedsDisplay()
    }

    /// A try to reconnect failed: the banner says why.
    public func retryFailed(_ error: LedgerClientError) {
        guard case .disconnected(let reason, let last, _) = connection else { return }
        connection = .disconnected(reason: reason, last: last, retry: error.description)
        application.setNeedsDisplay()
    }

    private func isChangeNote(_ note: Note) -> Bool {
        if case .lastChange = note { return true }
        return false
    }

    // MARK: Keys

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        if case .reconnected? = note { note = nil }
        switch inspector.handle(key) {
        case .ignored:
            return false
        case .handled, .giveBackFocus:  // nowhere to give the keys: the inspector is the screen
            return true
        case .openReport(let group):
            context.present(LeakReportScreen(group: group, ledger: ledger))
            return true
        case .openGrowth(let report):
            context.present(GrowthReportScreen(report: report, ledger: ledger))
            return true
        }
    }

    /// Opens the help over the inspector (or closes it when it is on top).
    public func toggleHelp() {
        if application.stack.top is HelpScreen {
            application.stack.dismissTop()
        } else {
            application.stack.present(HelpScreen(text: keyMap.attachHelpText, ledger: ledger))
        }
        application.setNeedsDisplay()
    }

    // MARK: Header

    private func renderHeader(into buffer: inout Buffer, area: Rect, style: LabStyle) {
        let theme = style.theme
        buffer.fill(area, style: style.bar)
        let dot = style.isASCII ? "*" : "●"
        var title = [TextSpan(" Tether attach ", style: theme.title)]
        switch connection {
        case .connected(let hello):
            title += [
                TextSpan("  \(hello.process)", style: .bold), TextSpan("  pid \(hello.pid)"),
                TextSpan("  \(dot) connected", style: style.calm),
            ]
        case .disconnected(_, let last, _):
            title += [
                TextSpan("  \(last.process)", style: .bold), TextSpan("  pid \(last.pid)"),
                TextSpan("  \(dot) disconnected", style: style.alarm),
            ]
        }
        title.append(TextSpan("  \(path)", style: theme.dimmed))
        buffer.setLine(Line(title), x: area.x, y: area.y, maxWidth: area.width, base: style.bar)
        guard area.height > 1 else { return }
        buffer.setLine(
            statusLine(style: style), x: area.x, y: area.y + 1, maxWidth: area.width, base: style.bar)
        guard area.height > 2, case .disconnected(_, _, let retry) = connection else { return }
        let tried = retry.map { " last try: \($0)" } ?? " the first try comes in a moment"
        buffer.setLine(
            Line(tried, style: theme.dimmed), x: area.x, y: area.y + 2, maxWidth: area.width, base: style.bar)
    }

    /// The header grows a line while disconnected, for the last try's outcome.
    private func fitHeader() {
        let rows: Int
        if case .disconnected = connection { rows = 3 } else { rows = 2 }
        application.header?.height = rows
    }

    /// The second line: the banner while disconnected, else the latest note.
    func statusLine(style: LabStyle) -> Line {
        let theme = style.theme
        if case .disconnected(let reason, _, _) = connection {
            return Line([
                TextSpan(" disconnected: \(reason). ", style: style.alarm),
                TextSpan("The last state stays on screen; retrying every few seconds.", style: theme.text),
            ])
        }
        switch note {
        case .reconnected(let hello, let was, let date)?:
            let whom = hello.pid == was.pid ? "pid \(hello.pid)" : "pid \(hello.pid), was \(was.pid)"
            return Line(
                " reconnected at \(AttachApp.clock(date)): \(hello.process) is back (\(whom))",
                style: theme.accent)
        case .leakFound(let report, let date)?:
            return Line([
                TextSpan(" leak found at \(AttachApp.clock(date)): ", style: style.alarm),
                TextSpan(report.headline),
                TextSpan(" (select it under Leaks, Enter opens its report)", style: theme.dimmed),
            ])
        case .lastChange(let date)?:
            return Line(
                " last change at \(AttachApp.clock(date)); nothing runs here until the next one",
                style: theme.dimmed)
        case nil:
            return Line(" waiting for the first snapshot", style: theme.dimmed)
        }
    }

    /// `21:30:05`, local time. With `localtime_r`, not a `DateFormatter`: Foundation's time zone
    /// machinery starts a Dispatch worker pool whose monitor would wake attach every second.
    static func clock(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

/// Attach's one full screen: the inspector, with the keys.
///
/// Main-actor isolated; the root of attach's stack.
@MainActor
final class AttachScreen: Screen {
    let lifecycle: Lifecycle
    let id = "attach"
    let title = "Attach"
    weak var app: AttachApp?

    init(ledger: Ledger) {
        lifecycle = Lifecycle(ledger: ledger)
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        app?.handle(key, context: context) ?? false
    }

    /// The wheel moves the selection three rows.
    func handle(mouse: MouseEvent, context: ScreenContext) -> Bool {
        switch mouse.kind {
        case .wheelUp: app?.inspector.move(by: -3)
        case .wheelDown: app?.inspector.move(by: 3)
        default: return false
        }
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        app?.inspector.render(
            into: &buffer, area: area, style: LabStyle(theme: theme), title: " Ledger ", focused: true)
    }
}
