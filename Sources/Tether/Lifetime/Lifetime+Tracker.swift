extension Lifetime {
    /// The object that tracks a lifetime, by identity. It is held unowned as well, which keeps its
    /// memory while the lifetime lives: no object made later takes its address and passes for it.
    /// Only the identity is read; the object itself may be gone.
    struct Tracker {
        let identity: ObjectIdentifier
        private unowned let memory: AnyObject

        init(_ object: AnyObject) {
            identity = ObjectIdentifier(object)
            memory = object
        }
    }
}
