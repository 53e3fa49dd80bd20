import Synchronization

/// The state of one subscription through a fuse that the per-value path needs, in one word: its
/// status, what the last delivery must do once it is terminal, and how many deliveries run.
///
/// Pure: each transition returns the next word. ``AtomicFuseGate`` applies them to an atomic.
/// The rule it keeps: the downstream subscriber is released, or finished by a blow, only when the
/// subscription is terminal *and* no delivery runs. A value arriving once it is terminal is
/// counted and leaves at once, so the thread that settles is the one that made it terminal while
/// nothing ran, or else the delivery that brings the count back to zero.
struct FuseGate: Equatable, Sendable {
    enum Status: UInt {
        case awaitingUpstream = 0
        case subscribed = 1
        case terminal = 2
    }

    /// What the delivery that leaves last does for a subscription that turned terminal meanwhile.
    enum Pending: UInt {
        case none = 0
        /// The fuse blew: finish the subscriber, then release it.
        case finish = 1
        /// The subscriber cancelled, or upstream completed: release it.
        case release = 2
    }

    private static let statusMask: UInt = 0b11
    private static let pendingShift: UInt = 2
    private static let pendingMask: UInt = 0b11 << pendingShift
    /// What a delivery adds to the word while it runs.
    static let deliveryUnit: UInt = 1 << 4

    private(set) var rawValue: UInt

    init(rawValue: UInt) { self.rawValue = rawValue }

    /// A new subscription: waiting for upstream, handing itself downstream (one delivery).
    static let initial = FuseGate(rawValue: Status.awaitingUpstream.rawValue | deliveryUnit)

    @inline(__always)
    var status: Status { Status(rawValue: rawValue & Self.statusMask) ?? .terminal }
    @inline(__always)
    var pending: Pending { Pending(rawValue: (rawValue & Self.pendingMask) >> Self.pendingShift) ?? .none }
    @inline(__always)
    var deliveries: UInt { rawValue / Self.deliveryUnit }

    private func with(status: Status? = nil, pending: Pending? = nil, deliveries: UInt? = nil) -> FuseGate {
        let status = status ?? self.status
        let pending = pending ?? self.pending
        let deliveries = deliveries ?? self.deliveries
        return FuseGate(
            rawValue: status.rawValue | pending.rawValue << Self.pendingShift | deliveries * Self.deliveryUnit
        )
    }

    /// Upstream's subscription arrived; nil unless the gate was waiting for it.
    func subscribing() -> FuseGate? {
        status == .awaitingUpstream ? with(status: .subscribed) : nil
    }

    /// A value arrives. It is counted as a delivery whatever the status (one atomic add);
    /// `admitted` says whether it may be delivered: only while subscribed. One that is not leaves
    /// at once, and may be the one to settle.
    @inline(__always)
    func entering() -> (next: FuseGate, admitted: Bool) {
        (FuseGate(rawValue: rawValue + Self.deliveryUnit), status == .subscribed)
    }

    /// A delivery ends (one atomic subtract). `settle` is what the leaving thread must now do:
    /// `.none` unless the subscription is terminal with something pending and this was the last.
    @inline(__always)
    func leaving() -> (next: FuseGate, settle: Pending) {
        let next = FuseGate(rawValue: rawValue - Self.deliveryUnit)
        return (next, next.deliveries == 0 ? next.pending : .none)
    }

    /// The last delivery has settled the subscription: nothing is pending any more (an atomic
    /// `and`, so that values arriving later leave without settling again).
    func settled() -> FuseGate { FuseGate(rawValue: rawValue & ~Self.pendingMask) }

    /// What ``settled()`` clears.
    static var pendingBits: UInt { pendingMask }

    /// The subscription ends (blown, cancelled or completed); nil if it already had. `idle` is
    /// true when no delivery runs: the caller settles now. Otherwise `pending` is left to the
    /// delivery that leaves last.
    func terminating(leaving pending: Pending) -> (next: FuseGate, idle: Bool)? {
        guard status != .terminal else { return nil }
        guard deliveries > 0 else { return (with(status: .terminal), true) }
        return (with(status: .terminal, pending: pending), false)
    }
}

/// A ``FuseGate`` in an atomic word: the transitions above, applied atomically. This is what a
/// fuse's subscription runs, so its tests run it too.
struct AtomicFuseGate: ~Copyable {
    private let word = Atomic<UInt>(FuseGate.initial.rawValue)

    var current: FuseGate { FuseGate(rawValue: word.load(ordering: .acquiring)) }

    /// A value arrives (``FuseGate/entering()``, one atomic add): whether it may be delivered.
    /// Admitted or not, it must ``leave()``.
    @inline(__always)
    func enter() -> Bool {
        FuseGate(rawValue: word.wrappingAdd(FuseGate.deliveryUnit, ordering: .acquiring).oldValue)
            .entering().admitted
    }

    /// A delivery ends (``FuseGate/leaving()``, one atomic subtract): what the leaving thread
    /// must settle now.
    @inline(__always)
    func leave() -> FuseGate.Pending {
        FuseGate(
            rawValue: word.wrappingSubtract(FuseGate.deliveryUnit, ordering: .acquiringAndReleasing).oldValue
        )
        .leaving().settle
    }

    /// Clears what was pending (``FuseGate/settled()``, one atomic `and`), so that values
    /// arriving later leave without settling again.
    func settle() {
        word.bitwiseAnd(~FuseGate.pendingBits, ordering: .acquiringAndReleasing)
    }

    /// Upstream's subscription arrived (``FuseGate/subscribing()``); false unless the gate was
    /// waiting for it.
    func subscribe() -> Bool {
        apply { $0.subscribing() } != nil
    }

    /// The subscription ends (``FuseGate/terminating(leaving:)``); nil if it already had, else
    /// whether no delivery runs (the caller settles now).
    func terminate(leaving pending: FuseGate.Pending) -> Bool? {
        var idle: Bool?
        _ = apply { gate in
            let terminated = gate.terminating(leaving: pending)
            idle = terminated?.idle
            return terminated?.next
        }
        return idle
    }

    /// Applies `transition` with compare-and-exchange; returns the gate it applied to, or nil when
    /// the transition declined.
    private func apply(_ transition: (FuseGate) -> FuseGate?) -> FuseGate? {
        var current = current
        while let next = transition(current) {
            let (exchanged, original) = word.compareExchange(
                expected: current.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged { return current }
            current = FuseGate(rawValue: original)
        }
        return nil
    }
}
