import Synchronization

/// Something a fuse cuts when it blows: one subscription through it.
protocol FuseMember: AnyObject, Sendable {
    func blow()
}

/// The shared switch of one fuse: which subscriptions go through it, and whether it has blown.
///
/// Thread-safe: the state is behind a `Mutex`; members are blown after unlocking (and released
/// after that).
final class FuseCore: Sendable {
    private struct State {
        var blown = false
        var members: [ObjectIdentifier: any FuseMember] = [:]
    }

    private let state = Mutex(State())

    var isBlown: Bool { state.withLock { $0.blown } }

    /// Adds a member; false when the fuse has already blown.
    func register(_ member: any FuseMember) -> Bool {
        state.withLock { state in
            guard !state.blown else { return false }
            state.members[ObjectIdentifier(member)] = member
            return true
        }
    }

    /// Removes a member that ended by itself.
    func unregister(_ member: any FuseMember) {
        let removed = state.withLock { $0.members.removeValue(forKey: ObjectIdentifier(member)) }
        // Released here, after unlocking.
        _ = removed
    }

    /// Blows the fuse once: every member is cut, later members are refused.
    func blow() {
        let members = state.withLock { state -> [any FuseMember] in
            guard !state.blown else { return [] }
            state.blown = true
            let members = Array(state.members.values)
            state.members = [:]
            return members
        }
        for member in members { member.blow() }
    }
}
