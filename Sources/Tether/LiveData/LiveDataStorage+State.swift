/// What a ``LiveDataStorage`` keeps under its lock, and the rounds its dispatch delivers.
extension LiveDataStorage {
    @usableFromInline
    enum DispatchPhase {
        case idle
        case running
        /// Running, and something changed since the round began: go round again.
        case invalidated
    }

    /// What one round delivers.
    @usableFromInline
    struct Round {
        @usableFromInline let value: T
        @usableFromInline let version: UInt64
        @usableFromInline let slots: [Slot]

        @inlinable init(value: T, version: UInt64, slots: [Slot]) {
            self.value = value
            self.version = version
            self.slots = slots
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var value: T?
        @usableFromInline var version: UInt64
        /// In order of registration (increasing keys).
        @usableFromInline var slots: [Slot] = []
        @usableFromInline var nextKey: UInt64 = 0
        @usableFromInline var dispatch = DispatchPhase.idle

        init(value: T?) {
            self.value = value
            version = value == nil ? 0 : 1
        }

        /// Claims the dispatch, or marks the one in progress invalidated.
        @inlinable
        mutating func claimDispatch() -> Bool {
            guard dispatch == .idle else {
                dispatch = .invalidated
                return false
            }
            dispatch = .running
            return true
        }

        /// The round to deliver next, or nil when the dispatch is over (the claim is given back).
        /// Every round after the first runs only if something invalidated the one before.
        @inlinable
        mutating func nextRound(isFirst: Bool) -> Round? {
            guard let value, isFirst || dispatch == .invalidated else {
                dispatch = .idle
                return nil
            }
            dispatch = .running
            return Round(value: value, version: version, slots: slots)
        }

        /// Takes the registrations of `leaving` that are still listed out of the list.
        @usableFromInline
        mutating func remove(_ leaving: [Slot]) -> [Slot] {
            leaving.filter { slot in
                guard let index = slots.firstIndex(where: { $0 === slot }) else { return false }
                _ = take(at: index)
                return true
            }
        }

        /// Takes registration `key` out of the list.
        mutating func remove(key: UInt64) -> Slot? {
            guard let index = slots.firstIndex(where: { $0.key == key }) else { return nil }
            return take(at: index)
        }

        mutating func take(at index: Int) -> Slot {
            let slot = slots.remove(at: index)
            slot.status.store(.removed, ordering: .relaxed)
            return slot
        }
    }
}
