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
        apply(.released, to: owner.key, at: now)
    }

    /// Moves the owner with `key` on `event`: the one place its phase changes. `change` changes
    /// its book in the same access (an entry opened with ``OwnerState/Event/entryOpened``).
    /// Returns false when the owner is not followed.
    @discardableResult
    mutating func apply(
        _ event: OwnerState.Event, to key: UInt64, at now: Duration,
        changing change: (inout OwnerBook) -> Void = { _ in }
    ) -> Bool {
        let moved = changeOwner(key) { book in
            change(&book)
            let before = book.state
            let effect = book.state.on(event)
            if effect == .queueVerdict { book.endedAt = now }
            return (before: before, after: book.state, effect: effect, record: book.record)
        }
        guard let (before, after, effect, record) = moved else { return false }
        if before.released != after.released {
            counters.owners -= 1
            log.append(time: now, kind: .deinit, subject: .owner(record), site: record.siteIndex)
        }
        if before.isEnding != after.isEnding { counters.ending += after.isEnding ? 1 : -1 }
        if before.isReportedLeak != after.isReportedLeak { counters.leaks += after.isReportedLeak ? 1 : -1 }
        switch effect {
        case .none:
            break
        case .queueVerdict:
            pending.append((now + gracePeriod, key))
            log.append(time: now, kind: .ownerEnded, subject: .owner(record), site: record.siteIndex)
        case .reportLeak:
            recordLeak(of: key, at: now)
        case .cover(let ancestor):
            covered[ancestor, default: []].append(key)
        case .releasedLate:
            log.append(time: now, kind: .releasedLate, subject: .owner(record), site: record.siteIndex)
            forget(key, at: now)
        case .forget:
            forget(key, at: now)
        }
        return true
    }

    /// Changes the book of owner `key` in place and returns what `change` returns; nil when the
    /// owner is not followed. In place through the dictionary's values: its keyed subscript moves
    /// a book out and back through a frame on the heap.
    @discardableResult
    mutating func changeOwner<Result>(_ key: UInt64, _ change: (inout OwnerBook) -> Result) -> Result? {
        guard let index = owners.index(forKey: key) else { return nil }
        return change(&owners.values[index])
    }

    /// Drops a settled owner, and moves on the owners its leak covered: each is now covered by
    /// the next ancestor that leaks, or is a leak of its own.
    private mutating func forget(_ key: UInt64, at now: Duration) {
        owners[key] = nil
        guard !covered.isEmpty, let children = covered.removeValue(forKey: key) else { return }
        for child in children {
            guard owners[child]?.state.phase == .covered(by: key), let record = owners[child]?.record
            else { continue }
            apply(.uncovered(coveredBy: leakingAncestor(of: record)), to: child, at: now)
        }
    }
}
