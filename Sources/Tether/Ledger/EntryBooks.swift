/// What the ledger keeps about one live entry beside the entry itself.
struct EntryBook {
    let entry: LedgerEntry
    /// Values delivered after its owner's end.
    var deliveriesAfterEnd = 0
}

/// The live entries of one owner, by key, in no order.
///
/// The first lives inline and the rest in a dictionary, as ``Lifetime`` keeps its first item:
/// most owners hold one or a few entries, and a dictionary is an allocation per owner.
struct EntryBooks {
    private var first: EntryBook?
    private var rest: [UInt64: EntryBook] = [:]

    var isEmpty: Bool { first == nil && rest.isEmpty }

    var count: Int { (first == nil ? 0 : 1) + rest.count }

    var values: [EntryBook] {
        guard let first else { return Array(rest.values) }
        return [first] + rest.values
    }

    mutating func insert(_ book: EntryBook) {
        if first == nil { first = book } else { rest[book.entry.key] = book }
    }

    /// Entry `key`'s book; nil when it is not here.
    func book(key: UInt64) -> EntryBook? {
        if let first, first.entry.key == key { return first }
        return rest[key]
    }

    /// Takes entry `key` out; nil when it is not here.
    mutating func remove(key: UInt64) -> EntryBook? {
        if let book = first, book.entry.key == key {
            first = nil
            return book
        }
        return rest.removeValue(forKey: key)
    }

    /// Counts a value delivered to entry `key` after its owner's end; false when it is not here.
    mutating func countDeliveryAfterEnd(key: UInt64) -> Bool {
        if first?.entry.key == key {
            first?.deliveriesAfterEnd += 1
            return true
        }
        return (rest[key]?.deliveriesAfterEnd += 1) != nil
    }
}
