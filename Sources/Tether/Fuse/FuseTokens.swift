import Synchronization

/// The tokens fuses put in their holders' sets, by identity: how a fuse made on a set finds the
/// tokens there of fuses nobody uses any more, to take them out.
///
/// A holder's set is written only where a fuse is made, on that thread, as any write to a
/// property of the holder: never by the thread that lets go of a fuse last. That thread may be any
/// thread, and may be writing the set itself at that moment (the set releasing a subscription
/// through the fuse).
///
/// A token is listed from its making until it is cancelled or released, which runs its action:
/// an identity in the list always names a live token, never a later object at its address.
enum FuseTokens {
    /// Each listed token's fuse, held weakly: gone once no publisher or subscription uses it.
    private struct Entry: Sendable {
        weak var core: FuseCore?
    }

    private static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// A token that blows `core` when it is cancelled or released.
    static func make(for core: FuseCore) -> AnyCancellable {
        let key = TokenKey()
        let token = AnyCancellable { [weak core] in
            if let listed = key.identity { forget(listed) }
            core?.blow()
        }
        let identity = ObjectIdentifier(token)
        key.identity = identity
        entries.withLock { $0[identity] = Entry(core: core) }
        return token
    }

    /// The identities of the tokens in `tokens` whose fuse nobody uses any more.
    static func retired(in tokens: Set<AnyCancellable>) -> Set<ObjectIdentifier> {
        let identities = tokens.map(ObjectIdentifier.init)
        // Copied out and read after the lock: reading a weak reference holds what it reads.
        let listed = entries.withLock { entries in identities.map { entries[$0] } }
        return Set(zip(identities, listed).filter { $1 != nil && $1?.core == nil }.map(\.0))
    }

    private static func forget(_ identity: ObjectIdentifier) {
        _ = entries.withLock { $0.removeValue(forKey: identity) }
    }
}

/// A token's identity, known once the token exists: its action, made before it, reads it here.
private final class TokenKey: Sendable {
    private let stored = Mutex<ObjectIdentifier?>(nil)

    var identity: ObjectIdentifier? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
