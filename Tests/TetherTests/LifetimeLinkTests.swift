import Synchronization
import Testing

@testable import Tether

/// The lifetime-bound registration that LiveData and `@Observed` share: every way it can end,
/// driven directly.
@Suite struct LifetimeLinkTests {
    /// A list of one registration, as a LiveData or a property keeps them.
    final class Listing: Sendable {
        let listed = Mutex(true)
        let removals = Mutex(0)

        func remove() {
            listed.withLock { $0 = false }
            removals.withLock { $0 += 1 }
        }
    }

    @Test func aBoundRegistrationIsRemovedOnceWhenItsLifetimeEnds() {
        withLedger { ledger in
            let lifetime = Lifetime()
            let listing = Listing()
            let entry = ledger.open(
                .observer, owner: nil, site: CallSite(fileID: #fileID, line: #line), bound: true)
            var stored: LifetimeLink?
            let bound = LifetimeLink.bind(lifetime, entry: entry, removal: { listing.remove() }) { link in
                stored = link
                return true
            }
            #expect(bound)
            #expect(stored != nil)
            #expect(ledger.counters.observers == 1)
            lifetime.end()
            #expect(listing.removals.withLock { $0 } == 1)
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func bindingToAnEndedLifetimeRunsTheRemovalAtOnceAndStoresNothing() {
        withLedger { ledger in
            let lifetime = Lifetime()
            lifetime.end()
            let listing = Listing()
            let entry = ledger.open(
                .observer, owner: nil, site: CallSite(fileID: #fileID, line: #line), bound: true)
            var stored = false
            let bound = LifetimeLink.bind(lifetime, entry: entry, removal: { listing.remove() }) { _ in
                stored = true
                return true
            }
            #expect(!bound)
            #expect(!stored)
            #expect(listing.removals.withLock { $0 } == 1)
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func aRegistrationThatLeftBeforeItsLinkWasStoredIsTakenBackOut() {
        withLedger { ledger in
            let lifetime = Lifetime()
            let listing = Listing()
            let entry = ledger.open(
                .observer, owner: nil, site: CallSite(fileID: #fileID, line: #line), bound: true)
            let bound = LifetimeLink.bind(lifetime, entry: entry, removal: { listing.remove() }) { _ in false
            }
            #expect(!bound)
            #expect(ledger.counters.observers == 0)
            // The lifetime no longer holds the removal: its end does not run it.
            lifetime.end()
            #expect(listing.removals.withLock { $0 } == 0)
        }
    }

    @Test func cuttingALinkTakesTheRemovalOutOfTheLifetime() {
        withLedger { ledger in
            let lifetime = Lifetime()
            let listing = Listing()
            let entry = ledger.open(
                .observer, owner: nil, site: CallSite(fileID: #fileID, line: #line), bound: true)
            var stored: LifetimeLink?
            _ = LifetimeLink.bind(lifetime, entry: entry, removal: { listing.remove() }) { link in
                stored = link
                return true
            }
            stored?.cut()
            #expect(ledger.counters.observers == 0)
            lifetime.end()
            #expect(listing.removals.withLock { $0 } == 0)
        }
    }

    @Test func aLinkDoesNotKeepItsLifetimeAlive() {
        withLedger { _ in
            weak var weakLifetime: Lifetime?
            var stored: LifetimeLink?
            let listing = Listing()
            do {
                let lifetime = Lifetime()
                weakLifetime = lifetime
                _ = LifetimeLink.bind(lifetime, entry: nil, removal: { listing.remove() }) { link in
                    stored = link
                    return true
                }
            }
            #expect(weakLifetime == nil)
            #expect(listing.removals.withLock { $0 } == 1)  // its deinit ended it
            stored?.cut()  // a lifetime that is gone: nothing to take out
        }
    }
}
