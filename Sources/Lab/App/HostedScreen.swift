import TerminalUI
import Tether

/// A screen of the lab's stack: it wraps a screen (home, a scenario's sheet, help) so that the
/// lab, not `Application`, lays the frame out — header, the stack in the main area, the
/// inspector beside it, the footer.
///
/// `Application` draws only from the topmost full-screen screen up, so every host is full
/// screen and the top one paints the whole frame through ``LabApp/paintFrame(into:area:theme:)``,
/// which draws each wrapped screen where it belongs. Everything else — id, lifecycle, keys,
/// teardown — is the wrapped screen's: the stack drives the wrapped screen's own `Lifecycle`.
/// Main-actor isolated; held by the stack until dismissed.
@MainActor
final class HostedScreen: Screen {
    /// What the host wraps.
    enum Role: Equatable {
        case home
        /// A scenario's sheet, presented in `mode`.
        case scenario(mode: Mode)
        case help
    }

    let content: any Screen
    let role: Role
    /// The wrapped screen's lifecycle (a screen's lifecycle never changes).
    let lifecycle: Lifecycle
    weak var lab: LabApp?

    init(_ content: any Screen, role: Role, lab: LabApp?) {
        self.content = content
        self.role = role
        self.lab = lab
        lifecycle = content.lifecycle
    }

    var id: String { content.id }
    var title: String { content.title }
    var presentation: Presentation { .fullScreen }
    var keyHints: [KeyHint] { content.keyHints }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        if let lab {
            lab.paintFrame(into: &buffer, area: area, theme: theme)
        } else {
            content.render(into: &buffer, area: area, theme: theme)
        }
    }

    /// Handles a key with the lab's ledger current, so what the key binds is recorded there.
    func handle(_ key: Key, context: ScreenContext) -> Bool {
        guard let environment = lab?.environment else { return content.handle(key, context: context) }
        return environment.recording { content.handle(key, context: context) }
    }
    func handle(mouse: MouseEvent, context: ScreenContext) -> Bool {
        content.handle(mouse: mouse, context: context)
    }
    func cancelTasks() { content.cancelTasks() }
    func endSubscriptions() { content.endSubscriptions() }
}
