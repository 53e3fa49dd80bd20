/// An owner from tracked to settled: the ledger's side of ``OwnerState``. Every change of an
/// owner's phase goes through ``apply(_:to:at:)``, which keeps the counters in step
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
        let handle = owner?.handle
        if ownerEnded, let handle { apply(.ended, to: handle, at: now) }
        cancelled.forEach { entry, wasPaused in
            close(entry, reason: .cancelled, wasPaused: wasPaused, at: now)
        }
        if released, let handle { apply(.released, to: handle, at: now) }
    }

    /// Moves `owner` on `event` — the one place an owner's phase changes — and carries out the
    /// transition's effect; nothing when the owner is not followed (it settled and was
    /// forgotten, by this move or an earlier one).
    mutating func apply(_ event: OwnerState.Event, to owner: OwnerHandle, at now: Duration) {
        guard let slot = owners.slot(of: owner) else { return }
        // One access to the book, in place: reading it out would copy it.
        let move = owners.change(slot: slot) { Self.move(&$0, on: event, at: now) }
        let (before, after) = (move.before, move.after)
        if before.released != after.released {
            counters.owners -= 1
            log.append(time: now, kind: .deinit, subject: .owner(move.tag), site: move.site)
        }
        if before.isEnding != after.isEnding { counters.ending += after.isEnding ? 1 : -1 }
        if before.isReportedLeak != after.isReportedLeak { counters.leaks += after.isReportedLeak ? 1 : -1 }
        switch move.effect {
        case .none:
            break
        case .queueVerdict:
            verdicts.enqueue(move.owner, dueAt: now + gracePeriod)
            log.append(time: now, kind: .ownerEnded, subject: .owner(move.tag), site: move.site)
        case .reportLeak:
            recordLeak(of: move.owner, at: now)
        case .cover(let ancestor):
            leaks.cover(move.owner, by: ancestor)
        case .releasedLate:
            log.append(time: now, kind: .releasedLate, subject: .owner(move.tag), site: move.site)
            forget(move.owner, at: now)
        case .forget:
            forget(move.owner, at: now)
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
        verdicts.forget(owner)
        for child in leaks.forget(owner) {
            guard owners[child]?.state.phase == .covered(by: owner.key), let record = owners[child]?.record
            else { continue }
            apply(.uncovered(coveredBy: coveringAncestor(of: record)), to: child, at: now)
        }
    }
}
