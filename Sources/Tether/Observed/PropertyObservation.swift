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
}

/// The two moments of a write.
@usableFromInline
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
/// Thread-safe: its state is atomic; a change made while a write is notifying applies to the
/// handlers not yet called.
public final class PropertyObservation: Sendable {
    /// `kind`, or retired for good.
    @usableFromInline
    enum Status: UInt8, AtomicRepresentable, Sendable {
        case did, will, all, disabled
        /// Obsolete: disabled for good.
        case obsolete

        init(_ kind: ObservationType) {
            switch kind {
            case .did: self = .did
            case .will: self = .will
            case .all: self = .all
            case .disabled: self = .disabled
            }
        }

        var kind: ObservationType {
            switch self {
            case .did: .did
            case .will: .will
            case .all: .all
            case .disabled, .obsolete: .disabled
            }
        }

        @inlinable
        func fires(at phase: ObservationPhase) -> Bool {
            switch (self, phase) {
            case (.all, _), (.will, .will), (.did, .did): true
            default: false
            }
        }
    }

    /// Where the observation stands in its property's list of observations.
    @usableFromInline
    enum Presence: UInt8, AtomicRepresentable, Sendable {
        /// Listed, not yet bound to its lifetime: not called, so that a lifetime found ended
        /// registers nothing even for a write that lands meanwhile.
        case pending
        /// Listed and called.
        case listed
        /// Left its property: never called again.
        case removed
    }

    @usableFromInline let status: Atomic<Status>
    @usableFromInline let presence: Atomic<Presence>
    /// The observation's ledger entry.
    let entry: LedgerEntry?

    /// `pending` for an observation still to be bound to a lifetime (``markListed()``).
    init(kind: ObservationType, entry: LedgerEntry?, pending: Bool) {
        status = Atomic(Status(kind))
        presence = Atomic(pending ? .pending : .listed)
        self.entry = entry
    }

    /// When the handler is called. Setting it on an obsolete observation is ignored: it stays
    /// `disabled`.
    public var kind: ObservationType {
        get { status.load(ordering: .acquiring).kind }
        set {
            var current = status.load(ordering: .relaxed)
            while current != .obsolete {
                let (exchanged, original) = status.compareExchange(
                    expected: current, desired: Status(newValue), ordering: .acquiringAndReleasing)
                if exchanged { return }
                current = original
            }
        }
    }

    /// Whether the handler is called at all: `kind` is not `disabled`.
    public var isEnabled: Bool { kind != .disabled }

    /// Whether the observation is retired. One way: setting it to true disables the observation
    /// for good and lets the property purge it; setting it to false afterwards is ignored.
    public var isObsolete: Bool {
        get { status.load(ordering: .acquiring) == .obsolete }
        set {
            guard newValue else { return }
            status.store(.obsolete, ordering: .releasing)
        }
    }

    /// Whether the handler is to be called at `phase` now.
    @inlinable
    func fires(at phase: ObservationPhase) -> Bool {
        presence.load(ordering: .acquiring) == .listed && status.load(ordering: .acquiring).fires(at: phase)
    }

    /// Counts one delivery in the ledger; writes from several threads may deliver at once. True
    /// when it is a zombie delivery, to record with ``recordZombie()`` after the handler's call.
    @usableFromInline
    func countDelivery() -> Bool {
        entry?.counted() == true
    }

    /// Records the zombie delivery ``countDelivery()`` found.
    @usableFromInline
    func recordZombie() {
        entry?.recordZombie()
    }

    /// Starts calling the handler: the observation is bound to its lifetime. An observation
    /// removed meanwhile stays removed.
    func markListed() {
        _ = presence.compareExchange(expected: .pending, desired: .listed, ordering: .acquiringAndReleasing)
    }

    /// Stops the handler for good: the observation left its property.
    func markRemoved() {
        presence.store(.removed, ordering: .releasing)
    }
}
