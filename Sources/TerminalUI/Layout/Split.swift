/// How much of a row or column a layout slot takes.
///
/// A plain value: `Sendable`.
public enum Constraint: Hashable, Sendable {
    /// Exactly `n` cells (fewer if the space runs out).
    case fixed(Int)
    /// `p` percent of the whole length, rounded down.
    case percentage(Int)
    /// A share of what fixed and percentage slots leave, proportional to `weight`.
    case fill(Int = 1)
}

/// Splits a rectangle into rows or columns by constraints.
///
/// Pure: the same input always gives the same rectangles; slots are laid out in order and
/// always cover exactly the input length when there is at least one `fill`.
/// A plain value: `Sendable`.
public struct Split: Hashable, Sendable {
    public enum Direction: Hashable, Sendable { case vertical, horizontal }
    public var direction: Direction
    public var constraints: [Constraint]
    /// Cells left empty between slots.
    public var spacing: Int

    public init(_ direction: Direction, _ constraints: [Constraint], spacing: Int = 0) {
        self.direction = direction
        self.constraints = constraints
        self.spacing = max(0, spacing)
    }
    public static func vertical(_ c: [Constraint], spacing: Int = 0) -> Split {
        Split(.vertical, c, spacing: spacing)
    }
    public static func horizontal(_ c: [Constraint], spacing: Int = 0) -> Split {
        Split(.horizontal, c, spacing: spacing)
    }

    /// The rectangles of the slots, in order.
    public func split(_ area: Rect) -> [Rect] {
        let total = direction == .vertical ? area.height : area.width
        let lengths = Split.lengths(constraints, total: total, spacing: spacing)
        var rects: [Rect] = []
        rects.reserveCapacity(lengths.count)
        var offset = 0
        for (i, len) in lengths.enumerated() {
            if i > 0 { offset = min(total, offset + spacing) }
            switch direction {
            case .vertical: rects.append(Rect(x: area.x, y: area.y + offset, width: area.width, height: len))
            case .horizontal:
                rects.append(Rect(x: area.x + offset, y: area.y, width: len, height: area.height))
            }
            offset += len
        }
        return rects
    }

    /// Lengths of the slots for a total length.
    public static func lengths(_ constraints: [Constraint], total: Int, spacing: Int = 0) -> [Int] {
        let total = max(0, total)
        var lengths = Array(repeating: 0, count: constraints.count)
        var remaining = max(0, total - spacing * max(0, constraints.count - 1))
        for (i, c) in constraints.enumerated() {
            switch c {
            case .fixed(let n):
                lengths[i] = min(max(0, n), remaining)
            case .percentage(let p):
                lengths[i] = min(total * min(max(0, p), 100) / 100, remaining)
            case .fill:
                continue
            }
            remaining -= lengths[i]
        }
        let weights = constraints.map { c -> Int in
            if case .fill(let w) = c { return max(0, w) }
            return 0
        }
        let totalWeight = weights.reduce(0, +)
        if totalWeight > 0 {
            var given = 0
            var lastFill = -1
            for (i, w) in weights.enumerated() where w > 0 {
                lengths[i] = remaining * w / totalWeight
                given += lengths[i]
                lastFill = i
            }
            lengths[lastFill] += remaining - given
        }
        return lengths
    }
}

extension Rect {
    /// Splits this rectangle into rows by `constraints`.
    public func rows(_ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        Split.vertical(constraints, spacing: spacing).split(self)
    }
    /// Splits this rectangle into columns by `constraints`.
    public func columns(_ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        Split.horizontal(constraints, spacing: spacing).split(self)
    }
}
