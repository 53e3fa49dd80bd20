/// A position on the terminal grid, in cells; (0, 0) is the top-left corner.
///
/// A plain value: immutable, `Sendable`.
public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A size on the terminal grid, in cells.
///
/// A plain value: `Sendable`. Negative dimensions are clamped to zero.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)×\(height)" }
    /// True when both dimensions are at least those of `other`.
    public func contains(_ other: Size) -> Bool { width >= other.width && height >= other.height }
}

/// A rectangle of cells: origin and size.
///
/// A plain value: `Sendable`. Width and height are never negative.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public init(origin: Point = Point(x: 0, y: 0), size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var size: Size { Size(width: width, height: height) }
    public var left: Int { x }
    public var top: Int { y }
    /// One past the last column.
    public var right: Int { x + width }
    /// One past the last row.
    public var bottom: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var area: Int { width * height }
    public var description: String { "(\(x),\(y) \(width)×\(height))" }

    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < right && p.y >= y && p.y < bottom }

    /// The overlap of two rectangles (empty, at `self`'s origin clamped, when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let nx = max(x, other.x)
        let ny = max(y, other.y)
        let nr = min(right, other.right)
        let nb = min(bottom, other.bottom)
        if nr <= nx || nb <= ny { return Rect(x: nx, y: ny, width: 0, height: 0) }
        return Rect(x: nx, y: ny, width: nr - nx, height: nb - ny)
    }

    /// Shrinks the rectangle by `margin` cells on every side.
    public func inset(by margin: Int) -> Rect {
        inset(horizontal: margin, vertical: margin)
    }
    public func inset(horizontal: Int, vertical: Int) -> Rect {
        let w = max(0, width - 2 * horizontal)
        let h = max(0, height - 2 * vertical)
        return Rect(x: x + min(horizontal, width / 2), y: y + min(vertical, height / 2), width: w, height: h)
    }

    /// A rectangle of `size` centred in this one (clipped to it).
    public func centered(_ size: Size) -> Rect {
        let w = min(size.width, width)
        let h = min(size.height, height)
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }

    /// Row `i` of this rectangle as a one-row rectangle.
    public func row(_ i: Int) -> Rect { Rect(x: x, y: y + i, width: width, height: i < height ? 1 : 0) }
}
