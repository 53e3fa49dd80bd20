import Tether

/// How a screen is shown: over the screens' whole area, as a sheet over the screen below, or as
/// an overlay over the whole frame.
public enum Presentation: Hashable, Sendable {
    case fullScreen
    /// Centred over the screen below, `widthPercent` × `heightPercent` of the screens' area (the
    /// frame less its header, side panel and footer), and at least `minHeight` rows while the
    /// area has them: what a small sheet needs to say its piece in a small terminal.
    case sheet(widthPercent: Int = 80, heightPercent: Int = 80, minHeight: Int = 3)
    /// Centred over the screens and the side panel, at most `maxWidth` columns wide, as tall as
    /// they are (help, a report).
    case overlay(maxWidth: Int)
}

/// One screen of an app: draws itself, handles keys when on top, owns a view model.
///
/// Its `lifecycle` is driven by the `ScreenStack`: resumed on top, started when covered,
/// destroyed when dismissed (which ends `lifecycle.lifetime` and what was bound to it).
/// Main-actor isolated.
@MainActor
public protocol Screen: AnyObject, LifecycleOwner {
    /// A stable identifier (e.g. "home"), used in dumps and teardown logs.
    var id: String { get }
    var title: String { get }
    var presentation: Presentation { get }
    /// Paints the screen into `area` of `buffer`. Must only paint.
    func render(into buffer: inout Buffer, area: Rect, theme: Theme)
    /// Handles a key while on top; returns true when it did. The default handles none.
    func handle(_ key: Key, context: ScreenContext) -> Bool
    /// Handles a mouse event while on top; returns true when it did.
    func handle(mouse: MouseEvent, context: ScreenContext) -> Bool
    /// The keys that work here, shown in the footer.
    var keyHints: [KeyHint] { get }
}

extension Screen {
    public var presentation: Presentation { .fullScreen }
    public var keyHints: [KeyHint] { [] }
    public func handle(_ key: Key, context: ScreenContext) -> Bool { false }
    public func handle(mouse: MouseEvent, context: ScreenContext) -> Bool { false }
}

/// What a screen may do in response to input: present, dismiss, quit, ask for a frame.
///
/// Valid while the application lives; main-actor isolated.
@MainActor
public struct ScreenContext {
    public unowned let application: Application
    /// The screen the context was made for (the one handling the event).
    public let screen: any Screen

    public var stack: ScreenStack { application.stack }

    /// Presents `screen` on top; `onResult` receives what it is dismissed with.
    public func present(_ screen: any Screen, onResult: (@MainActor (Any?) -> Void)? = nil) {
        application.stack.present(screen, onResult: onResult)
        application.setNeedsDisplay()
    }

    /// Dismisses this context's screen (and any above it) with `result`.
    public func dismiss(result: Any? = nil) {
        application.stack.dismiss(screen, result: result)
        application.setNeedsDisplay()
    }

    /// Ends the application's run loop.
    public func quit(code: Int32 = 0) { application.quit(code: code) }

    /// Asks for a frame.
    public func requestRedraw() { application.setNeedsDisplay() }
}
