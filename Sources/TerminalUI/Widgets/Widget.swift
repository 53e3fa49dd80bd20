/// Something that paints a rectangle of a `Buffer` and does nothing else.
///
/// Widgets are plain values built for one frame; rendering is pure (no I/O, no ncurses,
/// no escape codes) and never draws outside `area`.
public protocol Widget {
    func render(into buffer: inout Buffer, area: Rect)
}

/// A key and what it does, shown in a footer ("q quit").
///
/// A plain value: `Sendable`.
public struct KeyHint: Hashable, Sendable {
    public var key: String
    public var label: String
    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}
