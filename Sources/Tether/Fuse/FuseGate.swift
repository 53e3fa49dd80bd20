import Synchronization

/// The state of one subscription through a fuse that the per-value path reads, in one word: its
/// status, whether the subscriber is still to be finished, and how many deliveries run.
///
/// Pure: each transition returns the next word; ``AtomicFuseGate`` applies them to an atomic. The
/// rule it keeps: the subscriber never gets two signals at once. A blow that lands while a
/// delivery runs leaves the subscriber's `.finished` to the delivery that leaves last; a value
/// arriving once the subscription is terminal is counted and leaves at once, and may be that last
/// delivery.
struct FuseGate: Equatable, Sendable {
    enum Status: UInt {
        case awaitingUpstream = 0
        case subscribed = 1
        case terminal = 2
    }

    private static let statusMask: UInt = 0b11
    /// Set while the subscriber is to be finished by the last delivery to leave.
    private static let finishBit: UInt = 0b100
    /// What a delivery adds to the word while it runs.
    static let deliveryUnit: UInt = 0b1000

    private(set) var rawValue: UInt

    init(rawValue: UInt) { self.rawValue = rawValue }

    /// A new subscription: waiting for upstream, handing itself downstream (one delivery).
    static let initial = FuseGate(rawValue: Status.awaitingUpstream.rawValue | deliveryUnit)

    var status: Status { Status(rawValue: rawValue & Self.statusMask) ?? .terminal }
    /// Whether the last delivery to leave finishes the subscriber.
    var finishPending: Bool { rawValue & Self.finishBit != 0 }
    var deliveries: UInt { rawValue / Self.deliveryUnit }

    /// Upstream's subscription arrived; nil unless the gate was waiting for it.
    func subscribing() -> FuseGate? {
        guard status == .awaitingUpstream else { return nil }
        return FuseGate(rawValue: rawValue & ~Self.statusMask | Status.subscribed.rawValue)
    }

    /// A value arrives. It is counted as a delivery whatever the status (one atomic add);
    /// `admitted` says whether it may be delivered: only while subscribed. One that is not leaves
    /// at once.
    @inline(__always)
    func entering() -> (next: FuseGate, admitted: Bool) {
        (FuseGate(rawValue: rawValue + Self.deliveryUnit), status == .subscribed)
    }

    /// A delivery ends. `finishes`: it was the last of a subscription blown meanwhile, and the
    /// leaving thread finishes the subscriber — this one only: `next` has nothing pending any more.
    @inline(__always)
    func leaving() -> (next: FuseGate, finishes: Bool) {
        let next = FuseGate(rawValue: rawValue - Self.deliveryUnit)
        guard next.deliveries == 0, next.finishPending else { return (next, false) }
        return (FuseGate(rawValue: next.rawValue & ~Self.finishBit), true)
    }

    /// The subscription ends (`blown`: by its fuse, which finishes the subscriber); nil if it already
    /// had. `finishesNow`: blown while no delivery runs, the caller finishes the subscriber;
    /// blown during a delivery, the last delivery to leave does.
    func ending(blown: Bool) -> (next: FuseGate, finishesNow: Bool)? {
        guard status != .terminal else { return nil }
        let terminal = rawValue & ~Self.statusMask | Status.terminal.rawValue
        guard blown, deliveries > 0 else { return (FuseGate(rawValue: terminal), blown) }
        return (FuseGate(rawValue: terminal | Self.finishBit), false)
    }
}

/// A ``FuseGate`` in an atomic word: the transitions above, applied atomically. This is what a
/// fuse's subscription runs, so its tests run it too.
struct AtomicFuseGate: ~Copyable, Sendable {
    private let word = Atomic<UInt>(FuseGate.initial.rawValue)

    var current: FuseGate { FuseGate(rawValue: word.load(ordering: .acquiring)) }

    /// A value arrives (``FuseGate/entering()``, one atomic add): whether it may be delivered.
    /// Admitted or not, it must ``leave()``.
    @inline(__always)
    func enter() -> Bool {
        FuseGate(rawValue: word.wrappingAdd(FuseGate.deliveryUnit, ordering: .acquiring).oldValue)
            .entering().admitted
    }

    /// A delivery ends (``FuseGate/leaving()``): whether the leaving thread finishes the subscriber.
    @inline(__always)
    func leave() -> Bool {
        var finishes = false
        apply { gate in
            let left = gate.leaving()
            finishes = left.finishes
            return left.next
        }
        return finishes
    }

    /// Upstream's subscription arrived (``FuseGate/subscribing()``); false unless the gate was
    /// waiting for it.
    func subscribe() -> Bool {
        var subscribed = false
        apply { gate in
            let next = gate.subscribing()
            subscribed = next != nil
            return next
        }
        return subscribed
    }

    /// The subscription ends (``FuseGate/ending(blown:)``); nil if it already had, else whether the
    /// caller finishes the subscriber now.
    func end(blown: Bool) -> Bool? {
        var finishesNow: Bool?
        apply { gate in
            let ended = gate.ending(blown: blown)
            finishesNow = ended?.finishesNow
            return ended?.next
        }
        return finishesNow
    }

    /// Applies `transition` with compare-and-exchange until it lands or declines (returns nil).
    @inline(__always)
    private func apply(_ transition: (FuseGate) -> FuseGate?) {
        var current = FuseGate(rawValue: word.load(ordering: .relaxed))
        while let next = transition(current) {
            let (exchanged, original) = word.compareExchange(
                expected: current.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = FuseGate(rawValue: original)
        }
    }
}
