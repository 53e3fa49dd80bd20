/// The books of the owners a ledger follows, each in the slot its record names: an owner's record
/// finds its book with no hashing (making an owner, opening its entries and ending it each
/// hashed its key into a dictionary). A slot is reused once its owner is forgotten, so whoever
/// holds a slot apart from the record (a queued verdict, a covered leak) holds an ``OwnerHandle``,
/// which names the key too: a later owner in the same slot never passes for a forgotten one.
struct OwnerTable {
    private var slots: [LedgerState.OwnerBook?] = []
    /// The slots free for reuse, the last freed on top.
    private var free: [Int] = []

    /// The books, in no order.
    var values: some Sequence<LedgerState.OwnerBook> { slots.lazy.compactMap { $0 } }

    /// Follows a new owner: `make` makes its record, which names the slot it is given.
    mutating func add(_ make: (_ slot: Int) -> OwnerRecord) -> OwnerRecord {
        let slot = free.popLast() ?? slots.count
        let record = make(slot)
        if slot == slots.count {
            slots.append(LedgerState.OwnerBook(record))
        } else {
            slots[slot] = LedgerState.OwnerBook(record)
        }
        return record
    }

    /// The slot of the owner `handle` names; nil when that owner is not followed.
    func slot(of handle: OwnerHandle) -> Int? {
        guard handle.slot < slots.count, slots[handle.slot]?.record.key == handle.key else { return nil }
        return handle.slot
    }

    func slot(of record: OwnerRecord) -> Int? { slot(of: record.handle) }

    /// The book of the owner `handle` names, if it is followed.
    subscript(handle: OwnerHandle) -> LedgerState.OwnerBook? { slot(of: handle).flatMap { slots[$0] } }

    /// Changes the book in `slot`, which holds one (found by ``slot(of:)-(OwnerHandle)``), in place,
    /// and returns what `change` returns.
    mutating func change<Result>(slot: Int, _ change: (inout LedgerState.OwnerBook) -> Result) -> Result {
        change(&slots[slot]!)
    }

    /// Changes every book in place.
    mutating func forEachBook(_ body: (inout LedgerState.OwnerBook) -> Void) {
        for slot in slots.indices where slots[slot] != nil { body(&slots[slot]!) }
    }

    /// The handle of the owner in `slot`, which holds one.
    func handle(at slot: Int) -> OwnerHandle { slots[slot]!.record.handle }

    /// Forgets the owner in `slot`, which holds one; its slot is free for the next.
    @discardableResult
    mutating func remove(at slot: Int) -> LedgerState.OwnerBook {
        free.append(slot)
        return slots[slot].take()!
    }
}

/// An owner as held apart from its record: its key, and the slot of its book in the ledger's
/// ``OwnerTable``. Two numbers: queueing a verdict or covering a leak retains nothing.
struct OwnerHandle: Hashable {
    let key: UInt64
    let slot: Int
}
