/// An owner from tracked to settled: the ledger's side of ``OwnerState``. Every change of an
/// owner's phase goes through ``apply(_:to:at:)``, which keeps the counters in step with the
/// phases and carries out the transition's effect.
///
/// 1. ``LedgerState/makeOwner(key:type:site:at:parent:parentLink:)`` follows it: *alive*.
/// 2. Entries opened and closed for it count as its live entries.
/// 3. ``ownerEnded(_:at:)``: *ending*, its verdict queued for the end of the grace period.
/// 4. ``ownerReleased(_:at:)``: the owner object is gone. With nothing of it alive, it settles
///    (a leak among them: *released late*).
/// 5. The verdict (``LedgerState/judgeDueOwners(now:atMost:)``): what is gone settles, what is not
///    leaks — reported, or covered by the nearest ancestor that leaks, and reported once no
///    ancestor covers it any more.
extension LedgerState {
    /// Marks an owner ended: its verdict is due after the grace period.
    mutating func ownerEnded(_ owner: OwnerRecord, at now: Duration) {
        apply(.ended, to: owner.key, at: now)
    }

    /// Marks an owner's object released.
    mutating func ownerReleased(_ owner: OwnerRecord, at now: Duration) {
        guard owners[owner.key]?.state.released == false else { return }
        log.append(time: now, kind: .deinit, subject: .owner(owner), site: owner.siteIndex)
        apply(.released, to: owner.key, at: now)
    }

    /// Moves the owner with `key` on `event`: the one place its phase changes.
    mutating func apply(_ event: OwnerState.Event, to key: UInt64, at now: Duration) {
        guard let book = owners[key] else { return }
        let before = book.state
        let effect = book.state.on(event)
        let after = book.state
        if before.released != after.released { counters.owners -= 1 }
        if before.isEnding != after.isEnding { counters.ending += after.isEnding ? 1 : -1 }
        if before.isReportedLeak != after.isReportedLeak { counters.leaks += after.isReportedLeak ? 1 : -1 }
        switch effect {
        case .none:
            break
        case .queueVerdict:
            book.endedAt = now
            pending.append((now + gracePeriod, key))
            log.append(time: now, kind: .ownerEnded, subject: .owner(book.record), site: book.record.siteIndex)
        case .reportLeak:
            recordLeak(of: key, at: now)
        case .cover(let ancestor):
            covered[ancestor, default: []].append(key)
        case .releasedLate:
            log.append(time: now, kind: .releasedLate, subject: .owner(book.record), site: book.record.siteIndex)
            forget(key, at: now)
        case .forget:
            forget(key, at: now)
        }
    }

    /// Drops a settled owner, and moves on the owners its leak covered: each is now covered by
    /// the next ancestor that leaks, or is a leak of its own.
    private mutating func forget(_ key: UInt64, at now: Duration) {
        owners[key] = nil
        guard let children = covered.removeValue(forKey: key) else { return }
        for child in children {
            guard owners[child]?.state.phase == .covered(by: key), let record = owners[child]?.record
            else { continue }
            apply(.uncovered(coveredBy: leakingAncestor(of: record)), to: child, at: now)
        }
    }
}
