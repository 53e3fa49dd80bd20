import Synchronization
import TestSupport
import Testing
import Tether

/// A binding that ends by itself (a task that returns, a bound sink whose publisher finishes)
/// takes itself out of its lifetime, which it holds weakly. Once the ledger counts its entry
/// ended, it must hold the lifetime no more: a test that sees the count drop, then lets go of the
/// owner, must find the owner gone at once (not kept alive by a reference on another thread, and
/// so neither ended nor judged when it passes the grace period on a manual clock).
extension Adversarial {
    @Suite struct ReleaseAfterEndTests {
        /// Many rounds: the window is a few instructions wide.
        static let rounds = 40 * raceRounds

        @Test func aReturnedTaskDoesNotHoldItsOwnerPastTheVerdict() async {
            let fixture = LedgerFixture()
            var leaks = 0
            for round in 0..<Self.rounds {
                let owner = fixture.run { Slot(Viewer()) }
                let (started, start) = AsyncStream.makeStream(of: Void.self)
                let (finish, finishing) = AsyncStream.makeStream(of: Void.self)
                _ = fixture.run {
                    Task(boundTo: owner.value!.bag) {
                        start.yield()
                        for await _ in finish { return }
                    }
                }
                for await _ in started { break }
                finishing.yield()
                await Self.waitOnThisThread(round) { fixture.ledger.counters.tasks == 0 }
                leaks += await Self.leaksAfterReleasing(owner, fixture)
            }
            #expect(leaks == 0)
        }

        @Test func aFinishedBoundSinkDoesNotHoldItsOwnerPastTheVerdict() async {
            let fixture = LedgerFixture()
            var leaks = 0
            for round in 0..<Self.rounds {
                let owner = fixture.run { Slot(Viewer()) }
                let subject = Slot(PassthroughSubject<Int, Never>())
                fixture.run { subject.value!.sink(boundTo: owner.value!.bag) { _ in } }
                let finishing = Task.detached { subject.value!.send(completion: .finished) }
                await Self.waitOnThisThread(round) { fixture.ledger.counters.subscriptions == 0 }
                leaks += await Self.leaksAfterReleasing(owner, fixture)
                await finishing.value
            }
            #expect(leaks == 0)
        }

        /// Spins until `condition` holds (a yield every 10,000 checks, so that the other side runs
        /// on a single core), then waits a little longer, by the round: the release lands at
        /// varied points.
        private static func waitOnThisThread(_ round: Int, until condition: () -> Bool) async {
            await waitUntil("the binding's end to be counted", yieldingEvery: 10_000, condition)
            let delay = Slot(0)
            for _ in 0..<(round % 50) { _ = delay.value }
        }

        /// Lets go of the owner and passes the grace period: 1 if the owner was still there, or
        /// leaked; then waits for it to go, for the next round.
        private static func leaksAfterReleasing(_ owner: Slot<Viewer>, _ fixture: LedgerFixture) async
            -> Int
        {
            owner.take()
            fixture.passGracePeriod()
            let counters = fixture.ledger.counters
            await waitUntil("the owner to go") { fixture.ledger.counters.owners == 0 }
            return counters.owners != 0 || counters.leaks != 0 ? 1 : 0
        }
    }
}
