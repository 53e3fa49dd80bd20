/// The frame an `Application` draws its screens in: an optional header above them, an optional
/// side panel beside or below them, and a footer of key hints at the bottom.
extension Application {
    /// Rows drawn above the screens.
    ///
    /// Its `render` paints only its area; it runs on the main actor, once per frame.
    public struct Header {
        public var height: Int
        public var render: @MainActor (_ buffer: inout Buffer, _ area: Rect, _ theme: Theme) -> Void

        public init(
            height: Int,
            render: @escaping @MainActor (_ buffer: inout Buffer, _ area: Rect, _ theme: Theme) -> Void
        ) {
            self.height = max(0, height)
            self.render = render
        }
    }

    /// A panel beside the screens, or below them where the frame is narrow, drawn before them.
    ///
    /// `placement` decides each frame where the panel goes in the body (the area between header
    /// and footer), or returns nil to hide it; `render` paints it there. A panel that handles keys
    /// takes them while it has the focus (`Application.sidePanelHasFocus`), before the top screen,
    /// unless an overlay — which covers the panel — is on top; the footer then shows its
    /// `keyHints`. All run on the main actor.
    public struct SidePanel {
        public enum Placement: Hashable, Sendable {
            /// On the right, `width` columns wide.
            case trailing(width: Int)
            /// At the bottom, `height` rows high.
            case bottom(height: Int)
        }

        public var placement: @MainActor (_ body: Rect) -> Placement?
        public var render: @MainActor (_ buffer: inout Buffer, _ area: Rect, _ theme: Theme) -> Void
        /// Handles a key while the panel has the focus; returns true when it did. Keys it leaves
        /// go to the top screen, then to the global keys.
        public var handle: (@MainActor (_ key: Key, _ context: ScreenContext) -> Bool)?
        /// The footer's hints while the panel has the focus, before the global keys' hints.
        public var keyHints: @MainActor () -> [KeyHint]

        public init(
            placement: @escaping @MainActor (_ body: Rect) -> Placement?,
            render: @escaping @MainActor (_ buffer: inout Buffer, _ area: Rect, _ theme: Theme) -> Void,
            handle: (@MainActor (_ key: Key, _ context: ScreenContext) -> Bool)? = nil,
            keyHints: @escaping @MainActor () -> [KeyHint] = { [] }
        ) {
            self.placement = placement
            self.render = render
            self.handle = handle
            self.keyHints = keyHints
        }
    }

    /// Where the frame's parts go in `area`; nil below `minimumSize` (or in no area), where the
    /// frame says how big the terminal must be instead.
    struct Layout {
        var header: Rect?
        /// Between header and footer: the screens' frame, and the side panel's.
        var body: Rect
        var footer: Rect?
        var screens: Rect
        var sidePanel: Rect?
    }

    func layout(in area: Rect) -> Layout? {
        guard !area.isEmpty, area.size.contains(minimumSize) else { return nil }
        var layout = Layout(body: area, screens: area)
        if let header, header.height > 0 {
            let parts = layout.body.rows([.fixed(header.height), .fill()])
            layout.header = parts[0]
            layout.body = parts[1]
        }
        if layout.body.height > 1 {
            let parts = layout.body.rows([.fill(), .fixed(1)])
            layout.body = parts[0]
            layout.footer = parts[1]
        }
        layout.screens = layout.body
        if let placement = sidePanel?.placement(layout.body) {
            let parts =
                switch placement {
                case .trailing(let width): layout.body.columns([.fill(), .fixed(width)])
                case .bottom(let height): layout.body.rows([.fill(), .fixed(height)])
                }
            layout.screens = parts[0]
            if !parts[1].isEmpty { layout.sidePanel = parts[1] }
        }
        return layout
    }

    /// Whether the frame on the terminal as it is now has room for the side panel, and shows it.
    var isSidePanelShown: Bool { layout(in: Rect(size: backend.size))?.sidePanel != nil }

    /// Paints the whole frame into `buffer`: header, side panel, the screens from the topmost
    /// full-screen one up, footer — or, below `minimumSize`, how big the terminal must be.
    public func paint(into buffer: inout Buffer) {
        let area = buffer.area
        guard !area.isEmpty else { return }
        guard let layout = layout(in: area) else {
            paintTooSmall(into: &buffer, area: area)
            return
        }
        if let header, let rect = layout.header { header.render(&buffer, rect, theme) }
        let body = layout.body
        let screensArea = layout.screens
        if let sidePanel, let rect = layout.sidePanel { sidePanel.render(&buffer, rect, theme) }
        if let footer = layout.footer {
            let screenHints =
                sidePanelTakesKeys ? sidePanel?.keyHints() ?? [] : stack.top.map(footerHints) ?? []
            let hints = Application.fit(
                screen: screenHints, global: isTyping() ? [] : globalHints, width: footer.width)
            KeyHintBar(hints, theme: theme).render(into: &buffer, area: footer)
        }
        let screens = stack.screens
        let base = screens.lastIndex(where: { $0.presentation == .fullScreen }) ?? 0
        for screen in screens[base...] {
            let rect = screen.presentation.rect(screens: screensArea, frame: body)
            if screen.presentation != .fullScreen { buffer.fill(rect, style: theme.text) }
            screen.render(into: &buffer, area: rect, theme: theme)
        }
    }

    private func paintTooSmall(into buffer: inout Buffer, area: Rect) {
        let message = "needs \(minimumSize.width)×\(minimumSize.height), have \(area.width)×\(area.height)"
        let h = min(area.height, Paragraph.wrap(Line(message), width: area.width).count)
        let box = Rect(x: area.x, y: area.y + (area.height - h) / 2, width: area.width, height: h)
        Paragraph(message, style: theme.warning, alignment: .center).render(into: &buffer, area: box)
    }

    /// The footer's hints for `width` columns: the screen's first, then the global keys'. When
    /// they do not all fit, the screen's are dropped from the end, so the global keys (quit above
    /// all) stay in sight.
    static func fit(screen: [KeyHint], global: [KeyHint], width: Int) -> [KeyHint] {
        var screen = screen
        while !screen.isEmpty, KeyHintBar.width(of: screen + global) > width { screen.removeLast() }
        return screen + global
    }
}

extension Presentation {
    /// Where a screen presented this way goes: full screen and sheets over the screens' area,
    /// overlays over the whole frame between header and footer (side panel included).
    func rect(screens: Rect, frame: Rect) -> Rect {
        switch self {
        case .fullScreen:
            return screens
        case .sheet(let wp, let hp, let minHeight):
            let size = Size(
                width: max(min(screens.width, 10), screens.width * wp / 100),
                height: max(min(screens.height, minHeight), screens.height * hp / 100))
            return screens.centered(size)
        case .overlay(let maxWidth):
            return frame.centered(Size(width: min(frame.width, maxWidth), height: frame.height))
        }
    }
}
