/// The books of the owners a ledger follows, each in the slot its record names: an owner's record
/// finds its book with no hashing (making an owner, opening its entries and ending it each
/// hashed its key into a dictionary). A slot is reused once its owner is forgotten, so whoever
/// holds a slot apart from the record (a queued verdict, a covered leak) holds an ``OwnerHandle``,
/// which names the key too: a later owner in the same slot never passes for a forgotten one.
struct OwnerTable {
    private var slots: [LedgerState.OwnerBook?] = []
    /// The slots free for reuse, the last freed on top.
    private var free: [Int] = []

    /// The slot the next owner's record is to name.
    var nextSlot: Int { free.last ?? slots.count }

    /// The books, in no order.
    var values: some Sequence<LedgerState.OwnerBook> { slots.lazy.compactMap { $0 } }

    /// Follows an owner, in the slot its record names (``nextSlot``, taken when it was made).
    mutating func insert(_ book: consuming LedgerState.OwnerBook) {
        let slot = book.record.slot
        guard slot < slots.count else { return slots.append(book) }
        precondition(free.last == slot, "an owner takes the next free slot")
        free.removeLast()
        slots[slot] = consume book
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
