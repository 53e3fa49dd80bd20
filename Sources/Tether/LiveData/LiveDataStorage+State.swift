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

    /// What ties a listed registration to its lifetime and its lifecycle, once bound.
    @usableFromInline
    struct Ties {
        var link: LifetimeLink?
        /// The lifecycle subscription of a lifecycle-bound registration.
        var lifecycleToken: AnyCancellable?
    }

    /// A registration taken out of the list, with its ties, to finish after unlocking.
    @usableFromInline
    struct Leaving {
        @usableFromInline let slot: Slot
        @usableFromInline let ties: Ties
    }

    @usableFromInline
    struct State {
        @usableFromInline var value: T?
        @usableFromInline var version: UInt64
        /// In order of registration (increasing keys).
        @usableFromInline var slots: [Slot] = []
        /// The ties of every listed registration, by key.
        var ties: [UInt64: Ties] = [:]
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

        /// Lists a new registration, inactive; returns it.
        mutating func list(_ makeSlot: (_ key: UInt64) -> Slot) -> Slot {
            let slot = makeSlot(nextKey)
            nextKey += 1
            slots.append(slot)
            ties[slot.key] = Ties()
            return slot
        }

        /// Takes those of `departing` that are still listed out of the list.
        @usableFromInline
        mutating func remove(_ departing: [Slot]) -> [Leaving] {
            departing.compactMap { slot in
                slots.firstIndex { $0 === slot }.map { take(at: $0) }
            }
        }

        /// Takes registration `key` out of the list.
        mutating func remove(key: UInt64) -> Leaving? {
            slots.firstIndex { $0.key == key }.map { take(at: $0) }
        }

        private mutating func take(at index: Int) -> Leaving {
            let slot = slots.remove(at: index)
            slot.status.store(.removed, ordering: .relaxed)
            return Leaving(slot: slot, ties: ties.removeValue(forKey: slot.key) ?? Ties())
        }
    }
}
