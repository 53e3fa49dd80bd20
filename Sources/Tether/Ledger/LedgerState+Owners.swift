/// An owner from tracked to settled: the ledger's side of ``OwnerState``. Every change of an
/// owner's phase goes through ``apply(_:toOwnerAt:at:)``, which keeps the counters in step
/// with the phases and carries out the transition's effect.
///
/// 1. ``LedgerState/makeOwner(type:site:at:parent:parentLink:)`` follows it: *alive*.
/// 2. Entries opened and closed for it count as its live entries.
/// 3. Its lifetime ends (``lifetimeEnded(owner:ownerEnded:cancelled:released:at:)``): *ending*,
///    its verdict queued for the end of the grace period.
/// 4. Its lifetime deinitializes (the same call, `released`): the owner object is gone. With
///    nothing of it alive, it settles (a leak among them: *released late*).
/// 5. The verdict (``LedgerState/judgeDueOwners(now:atMost:)``): what is gone settles, what is not
///    leaks — reported, or covered by the nearest ancestor that leaks or awaits its own verdict,
///    and reported once no ancestor covers it any more.
extension LedgerState {
    /// Records a lifetime's end in one access to its owner's book: the owner's end (when
    /// `ownerEnded`), the entries it cancelled, in order, and — when the lifetime deinitialized —
    /// the owner's release.
    mutating func lifetimeEnded(
        owner: OwnerRecord?, ownerEnded: Bool, cancelled: ClosedEntries, released: Bool, at now: Duration
    ) {
        var index = owner.flatMap { owners.slot(of: $0) }
        if ownerEnded, let found = index, !apply(.ended, toOwnerAt: found, at: now) { index = nil }
        cancelled.forEach { entry, wasPaused in
            // Another owner's entry: that owner may settle and leave, but ours keeps its slot.
            guard let found = index, entry.owner === owner else {
                return close(entry, reason: .cancelled, wasPaused: wasPaused, at: now)
            }
            if !close(entry, reason: .cancelled, wasPaused: wasPaused, ownerAt: found, at: now) {
                index = nil
            }
        }
        if released, let found = index { apply(.released, toOwnerAt: found, at: now) }
    }

    /// Moves `owner` on `event`. Returns false when the owner is not followed.
    @discardableResult
    mutating func apply(_ event: OwnerState.Event, to owner: OwnerHandle, at now: Duration) -> Bool {
        guard let index = owners.slot(of: owner) else { return false }
        apply(event, toOwnerAt: index, at: now)
        return true
    }

    /// Moves the owner at `index` on `event` — the one place its phase changes — and carries out
    /// the transition's effect. Returns false when the owner settled and was forgotten: `index` is
    /// no longer valid. (No other effect adds or removes an owner, so otherwise `index` still
    /// points at it.)
    @discardableResult
    mutating func apply(
        _ event: OwnerState.Event, toOwnerAt index: Int, at now: Duration
    ) -> Bool {
        // One access to the book, in place: reading it out would copy it.
        let move = owners.change(slot: index) { Self.move(&$0, on: event, at: now) }
        let (before, after) = (move.before, move.after)
        if before.released != after.released {
            counters.owners -= 1
            log.append(time: now, kind: .deinit, subject: .owner(move.tag), site: move.site)
        }
        if before.isEnding != after.isEnding { counters.ending += after.isEnding ? 1 : -1 }
        if before.isReportedLeak != after.isReportedLeak { counters.leaks += after.isReportedLeak ? 1 : -1 }
        switch move.effect {
        case .none:
            return true
        case .queueVerdict:
            pending.append((now + gracePeriod, move.owner))
            log.append(time: now, kind: .ownerEnded, subject: .owner(move.tag), site: move.site)
            return true
        case .reportLeak:
            recordLeak(of: move.owner, at: now)
            return true
        case .cover(let ancestor):
            covered[ancestor, default: []].append(move.owner)
            return true
        case .releasedLate:
            log.append(time: now, kind: .releasedLate, subject: .owner(move.tag), site: move.site)
            forget(move.owner, at: now)
            return false
        case .forget:
            forget(move.owner, at: now)
            return false
        }
    }

    /// An owner's move: its state before and after, the effect, and who it is — facts read from
    /// its record in place, so that no reference to the record is copied.
    private struct Move {
        let before: OwnerState
        let after: OwnerState
        let effect: OwnerState.Effect
        let owner: OwnerHandle
        let tag: OwnerTag
        let site: SiteIndex
    }

    /// Moves `book` on `event`.
    private static func move(_ book: inout OwnerBook, on event: OwnerState.Event, at now: Duration) -> Move {
        let before = book.state
        let effect = book.state.on(event)
        if effect == .queueVerdict { book.endedAt = now }
        return Move(
            before: before, after: book.state, effect: effect, owner: book.record.handle,
            tag: book.record.tag, site: book.record.siteIndex)
    }

    /// Changes the book of `owner` in place and returns what `change` returns; nil when the owner
    /// is not followed.
    @discardableResult
    mutating func changeOwner<Result>(
        _ owner: OwnerHandle, _ change: (inout OwnerBook) -> Result
    ) -> Result? {
        guard let index = owners.slot(of: owner) else { return nil }
        return owners.change(slot: index, change)
    }

    /// Drops a settled owner (a verdict queued for it is skipped when it comes up; the last one
    /// queued, an owner released as it ended, is dropped now), and moves on the owners its leak
    /// covered: each is now covered by the next ancestor that covers, or is a leak of its own.
    private mutating func forget(_ owner: OwnerHandle, at now: Duration) {
        owners.remove(at: owner.slot)
        if pending.last?.owner == owner { pending.removeLast() }
        if !reported.isEmpty { reported.removeValue(forKey: owner) }
        let key = owner.key
        guard !covered.isEmpty, let children = covered.removeValue(forKey: key) else { return }
        for child in children {
            guard owners[child]?.state.phase == .covered(by: key), let record = owners[child]?.record
            else { continue }
            apply(.uncovered(coveredBy: coveringAncestor(of: record)), to: child, at: now)
        }
    }
}
