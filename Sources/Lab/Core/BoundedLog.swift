/// The last `capacity` lines (or items) appended, oldest first: a scenario's log, a history, the
/// latest jobs.
///
/// A plain value; `Sendable` when its elements are.
struct BoundedLog<Element> {
    let capacity: Int
    private(set) var items: [Element] = []

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Appends `item`, dropping the oldest beyond the capacity.
    mutating func append(_ item: Element) {
        items.append(item)
        if items.count > capacity { items.removeFirst(items.count - capacity) }
    }

    /// Changes the items in place (their count stays the same).
    mutating func update(_ body: (inout [Element]) -> Void) {
        body(&items)
    }
}

extension BoundedLog: Sendable where Element: Sendable {}
