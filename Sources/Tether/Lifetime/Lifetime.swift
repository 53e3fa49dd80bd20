import Synchronization

/// A span that ends once — explicitly, or when its holder lets go of it — and cancels what it
/// holds when it does.
///
/// `Lifetime` is the primitive every Tether binding stands on. Bind to it with the APIs labelled
/// `boundTo:` — `store(boundTo:)`, `sink(boundTo:)`, `Task(boundTo:)`, `forEach(boundTo:)`,
/// `observe(_:boundTo:)` — or add work with ``onEnd(_:)``; when it ends:
/// 1. it is marked ended (atomically: a concurrent binding either lands before and is
///    cancelled with the rest, or lands after and is cancelled at once);
/// 2. what it holds is cancelled in reverse order of adding, after the lock is released — a
///    cancel that re-enters the lifetime (or deinitializes its owner) cannot deadlock;
/// 3. the ``Ledger`` records it in one step: its owner, if it tracks one, ended (the ledger
///    checks for leaks after the grace period) and the entries it cancelled. Deliveries count as
///    zombies from step 1 on.
///
/// A lifetime ends at the latest when it deinitializes. An object becomes a ledger *owner* by
/// holding a lifetime and calling ``track(_:fileID:line:)`` once, in its `init`:
///
/// ```swift
/// final class ViewModel {
///     let lifetime = Lifetime()
///     init(events: some Publisher<Int, Never>) {
///         lifetime.track(self)
///         events.sink { print($0) }.store(boundTo: lifetime)
///     }
/// }
/// ```
///
/// Thread-safe: all mutable state is in `state`, behind its lock. ``DisposeBag`` is the name
/// for a lifetime an owner keeps as a stored property.
public final class Lifetime: Sendable {
    /// Something added, with its entry in the ledger.
    struct Item {
        let token: UInt64
        let action: Action
        let entry: LedgerEntry?
    }

    private struct State {
        var ended = false
        /// The first item inline: most lifetimes hold one or two, and an array is an allocation.
        var first: Item?
        var rest: [Item] = []
        var nextToken: UInt64 = 0
        var owner: OwnerRecord?
        /// Made by ``linkToOwner()``; set with `owner`.
        var ownerLink: OwnerLink?
        /// The object that tracks this lifetime, recorded with the ledger on or off.
        var tracker: Tracker?
        /// Whether a child lifetime was ever adopted: its end is among the actions.
        var hasChildren = false
        /// The parent's action that ends this lifetime: taken out of the parent at this end, so a
        /// long-lived parent does not keep one for every child it ever had.
        var adoption: Token?

        mutating func append(_ item: Item) {
            if first == nil && rest.isEmpty { first = item } else { rest.append(item) }
        }

        mutating func remove(token: UInt64) -> Item? {
            if let index = rest.lastIndex(where: { $0.token == token }) { return rest.remove(at: index) }
            guard let item = first, item.token == token else { return nil }
            first = nil
            return item
        }

        /// Marks the end and takes out what it acts on; nil if it had ended, unless `releasing`.
        mutating func end(releasing: Bool) -> Ending? {
            if ended { return releasing ? Ending(owner: owner) : nil }
            ended = true
            defer { (first, rest) = (nil, []) }
            return Ending(
                first: first, rest: rest, owner: owner, hasChildren: hasChildren, adoption: adoption)
        }
    }

    /// What an end takes out of the state, to act on once the lock is released.
    private struct Ending {
        var first: Item? = nil
        var rest: [Item] = []
        var owner: OwnerRecord?
        var hasChildren = false
        var adoption: Token? = nil
    }

    /// The ledger this lifetime records into.
    public let ledger: Ledger
    /// Held weakly, as the parent holds its children: a child kept elsewhere must not keep its
    /// parent from deinitializing — and so from ending — when the parent's owner goes.
    private weak let parent: Lifetime?
    private let state = LockedBox(State())
    /// Names this lifetime in its tokens, once in the process: a token of a lifetime that is gone
    /// takes nothing out of one made later at its address.
    private let serial = Lifetime.serials.wrappingAdd(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)

    /// Creates a lifetime that records into `ledger` (the task's current ledger by default).
    ///
    /// - Parameters:
    ///   - parent: A lifetime whose end ends this one too; neither keeps the other alive. Leaks
    ///     are reported at the root owner: an owner whose parent leaked is not reported on its own.
    ///   - ledger: The ledger that records the lifetime's owner and bindings.
    public init(boundTo parent: Lifetime? = nil, ledger: Ledger = .current) {
        self.ledger = ledger
        self.parent = parent
        parent?.adopt(self)
    }

    deinit { finish(releasing: true) }

    /// Makes `owner` this lifetime's owner in the ledger. Call it once, from the owner's `init`;
    /// the owner must hold the lifetime (its deinit is the owner's release).
    ///
    /// Bindings added before this call are recorded without an owner.
    public func track(_ owner: AnyObject, fileID: StaticString = #fileID, line: UInt = #line) {
        let tracker = Tracker(owner)
        let record = ledger.makeOwner(
            for: owner, site: CallSite(fileID: fileID, line: line), parent: parent(in: ledger))
        // One lock records both the tracker (ledger on or off) and the owner's record.
        let outcome = state.withLock { state -> (first: Bool, ended: Bool) in
            guard state.tracker == nil else { return (false, state.ended) }
            state.tracker = tracker
            state.owner = record
            if let record { state.ownerLink?.set(record) }
            return (true, state.ended)
        }
        guard let record else { return }
        // Tracked already (a second call, or a race): the first record stands, this one goes.
        guard outcome.first else { return ledger.discardOwner(record) }
        if outcome.ended { ledger.ownerEnded(record) }
    }

    /// Whether `object` is the one that tracks this lifetime. Such an object holds the lifetime
    /// (``track(_:fileID:line:)``'s contract), so the lifetime ends when the object goes, at the
    /// latest: what the lifetime bounds needs no separate check that the object is alive.
    func isTracked(by object: AnyObject) -> Bool {
        let identity = ObjectIdentifier(object)
        return state.withLock { $0.tracker?.identity == identity }
    }

    /// The owner's identity in the ledger (`ViewModel#3`), once tracked.
    public var ownerID: OwnerID? { ownerRecord.map(ledger.ownerID(of:)) }

    var ownerRecord: OwnerRecord? { state.withLock { $0.owner } }

    /// A link to the owner's record, for a child lifetime's owner that tracks before this
    /// lifetime's does (or while this lifetime tracks none); made on the first request, so that
    /// other lifetimes pay nothing for it.
    func linkToOwner() -> OwnerLink {
        if let link = state.withLock({ $0.ownerLink }) { return link }
        let outer = parent(in: ledger)?.linkToOwner()
        return state.withLock { state in
            if let link = state.ownerLink { return link }
            let link = OwnerLink(state.owner, outer: outer)
            state.ownerLink = link
            return link
        }
    }

    /// The parent lifetime, if it records into `ledger`: an owner's leak is covered only by an
    /// ancestor's in the same ledger (keys and verdicts are per ledger).
    func parent(in ledger: Ledger) -> Lifetime? {
        guard let parent, parent.ledger === ledger else { return nil }
        return parent
    }

    /// Whether the lifetime has ended.
    public var isEnded: Bool { state.withLock { $0.ended } }

    /// How many actions the lifetime holds for its end: what it keeps alive until then.
    var actionCount: Int { state.withLock { ($0.first == nil ? 0 : 1) + $0.rest.count } }

    /// Runs `work` when the lifetime ends; runs it at once if it already has.
    ///
    /// The work is not a ledger entry; bind with the `boundTo:` APIs for that.
    @discardableResult
    public func onEnd(_ work: @escaping @Sendable () -> Void) -> Token {
        insert(.call(work), entry: nil) ?? .ended
    }

    /// Takes out what `token` added without running it (its ledger entry ends): work added with
    /// ``onEnd(_:)`` is dropped; a subscription handed over is released, and so cancelled, as a
    /// released `AnyCancellable` is. Returns false when it is no longer there, or another
    /// lifetime gave the token.
    @discardableResult
    public func remove(_ token: Token) -> Bool {
        guard let item = takeOut(token) else { return false }
        item.entry?.end(.ended)
        return true
    }

    /// As ``remove(_:)``, but the item's entry is the caller's to end: one that holds this lifetime
    /// only weakly ends it after letting go, so that an owner released once the ledger has counted
    /// the entry ended is not kept, past its verdict, by the reference that removed it.
    func takeOut(_ token: Token) -> Item? {
        guard token.lifetime == serial else { return nil }
        return state.withLock { $0.remove(token: token.value) }
    }

    /// Ends the lifetime: marks it ended (and its owner, for the ledger's zombie count), cancels
    /// what it holds in reverse order of adding, then records the end in the ledger. Later calls
    /// do nothing.
    public func end() {
        finish(releasing: false)
    }

    /// Ends the lifetime if it has not ended; `releasing` when it deinitializes (its owner is gone).
    /// The cancellations come first, so tasks and subscriptions stop as soon as they can; the
    /// ledger then records the whole end in one step — except that a lifetime with children
    /// records its owner's end before ending them, so that its verdict comes before theirs.
    private func finish(releasing: Bool) {
        guard let taken = state.withLock({ $0.end(releasing: releasing) }) else { return }
        if let adoption = taken.adoption { parent?.remove(adoption) }
        var (ownerEnded, endBegun) = (false, false)
        if let owner = taken.owner {
            ownerEnded = !owner.ended.exchange(true, ordering: .acquiringAndReleasing)
            if ownerEnded && taken.hasChildren {
                // Queued for its verdict before the children its actions end: judged first, a
                // parent that leaked keeps its leaking children from being reported on their own,
                // however many verdicts the ledger judges at a time.
                ledger.beginEnd(of: owner)
                (ownerEnded, endBegun) = (false, true)
            }
        }
        var closed = ClosedEntries()
        for item in taken.rest.reversed() { cancel(item, into: &closed) }
        if let first = taken.first { cancel(first, into: &closed) }
        ledger.lifetimeEnded(
            owner: taken.owner, ownerEnded: ownerEnded, cancelled: closed, released: releasing,
            completingEnd: endBegun)
    }

    /// Runs `item`'s cancellation and ends its entry; an entry of this lifetime's ledger is closed
    /// there with the rest, in `closed`.
    private func cancel(_ item: Item, into closed: inout ClosedEntries) {
        item.action.run()
        guard let entry = item.entry else { return }
        guard entry.ledger === ledger else { return entry.end(.cancelled) }
        if let wasPaused = entry.markEnded() { closed.append(entry, wasPaused: wasPaused) }
    }

    // MARK: - For Tether's binding APIs

    /// Adds `action` as a ledger entry of `kind` made at `site`, owned by this lifetime's owner,
    /// whose deliveries Tether does not see. Nil when the lifetime had ended: the action has run.
    @discardableResult
    func bind(_ action: Action, kind: EntryKind, site: CallSite) -> Token? {
        let entry = ledger.open(kind, owner: ownerRecord, site: site, bound: true, counts: false)
        return insert(action, entry: entry)
    }

    /// Adds an already-open entry, ending it (as cancelled) when the lifetime ends. Nil when the
    /// lifetime had ended: the action has run and the entry has ended, before this returns.
    @discardableResult
    func insert(_ action: Action, entry: LedgerEntry?) -> Token? {
        let token = state.withLock { state -> UInt64? in
            guard !state.ended else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.append(Item(token: token, action: action, entry: entry))
            return token
        }
        guard let token else {
            // Adding to an ended lifetime cancels at once.
            action.run()
            entry?.end(.cancelled)
            return nil
        }
        return Token(value: token, lifetime: serial)
    }

    /// Makes `child` end with this lifetime, and tells it the action that ends it, for it to
    /// take out when it ends first.
    private func adopt(_ child: Lifetime) {
        state.withLock { $0.hasChildren = true }
        // The child is held weakly: a parent must not keep its children alive.
        let adoption = insert(.call { [weak child] in child?.end() }, entry: nil)
        child.state.withLock { $0.adoption = adoption }
    }
}
