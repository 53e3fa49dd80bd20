import Synchronization

/// When a ``PropertyObservation`` is called: before a write, after it, both, or not at all.
public enum ObservationType: Sendable, Hashable, CaseIterable {
    /// After the value is stored: the handler gets `(new, old)`.
    case did
    /// Before the value is stored: the handler gets `(new, nil)`, `new` being the value about to
    /// be stored.
    case will
    /// Before and after: called twice per write.
    case all
    /// Not called.
    case disabled

    func includes(_ phase: ObservationPhase) -> Bool {
        switch (self, phase) {
        case (.all, _), (.will, .will), (.did, .did): true
        default: false
        }
    }
}

/// The two moments of a write.
enum ObservationPhase { case will, did }

/// A handle on one observation of an ``ObservedProperty``: change when it fires, or retire it.
///
/// Holding the handle keeps neither the property nor the handler alive. ``isObsolete`` retires
/// the observation from anywhere, without access to the property: it stops firing at once and is
/// purged (its handler released, its ledger entry ended) by the property's next `observe`,
/// `remove`, `bind`, `unbind` or `cleanse`.
///
/// ```swift
/// let observation = $x.observe(.did) { new, old in print(old!, "→", new) }
/// observation.kind = .disabled     // quiet during a batch of writes
/// observation.kind = .did
/// observation.isObsolete = true    // for good
/// ```
///
/// Thread-safe: its state is behind a `Mutex`; a change made while a write is notifying applies to
/// the handlers not yet called.
public final class PropertyObservation: Sendable {
    private struct State {
        var kind: ObservationType
        var isObsolete = false
        var isRemoved = false
    }

    private let state: Mutex<State>
    /// The observation's ledger entry.
    let entry: LedgerEntry?

    init(kind: ObservationType, entry: LedgerEntry?) {
        state = Mutex(State(kind: kind))
        self.entry = entry
    }

    /// When the handler is called. Setting it on an obsolete observation is ignored: it stays
    /// `disabled`.
    public var kind: ObservationType {
        get { state.withLock { $0.kind } }
        set {
            state.withLock { state in
                guard !state.isObsolete else { return }
                state.kind = newValue
            }
        }
    }

    /// Whether the handler is called at all: `kind` is not `disabled`.
    public var isEnabled: Bool { kind != .disabled }

    /// Whether the observation is retired. One way: setting it to true disables the observation
    /// for good and lets the property purge it; setting it to false afterwards is ignored.
    public var isObsolete: Bool {
        get { state.withLock { $0.isObsolete } }
        set {
            guard newValue else { return }
            state.withLock { state in
                state.isObsolete = true
                state.kind = .disabled
            }
        }
    }

    /// Whether the handler is to be called at `phase` now.
    func fires(at phase: ObservationPhase) -> Bool {
        state.withLock { !$0.isRemoved && $0.kind.includes(phase) }
    }

    /// Stops the handler for good: the observation left its property.
    func markRemoved() {
        state.withLock { $0.isRemoved = true }
    }
}
