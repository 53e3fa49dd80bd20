import Testing

@testable import Tether

/// The owner's phases, driven through the transition function alone: every phase, every way out.
@Suite struct OwnerStateTests {
    /// Applies `events` in order; returns the state and the effect of each.
    private func run(_ events: [OwnerState.Event], from start: OwnerState = OwnerState()) -> (
        state: OwnerState, effects: [OwnerState.Effect]
    ) {
        var state = start
        let effects = events.map { state.on($0) }
        return (state, effects)
    }

    // MARK: alive

    @Test func anOwnerStartsAliveWithNothing() {
        let state = OwnerState()
        #expect(state.phase == .alive)
        #expect(!state.released && state.live == 0)
    }

    @Test func aliveCountsItsEntriesAndWaitsForItsEnd() {
        let (state, effects) = run([.entryOpened, .entryOpened, .entryClosed, .entryClosed])
        #expect(state.phase == .alive)
        #expect(state.live == 0)
        #expect(effects == [.none, .none, .none, .none])
    }

    @Test func aliveLeavesOnlyByItsEnd() {
        let (state, effects) = run([.judged(coveredBy: nil), .uncovered(coveredBy: nil), .ended])
        #expect(effects == [.none, .none, .queueVerdict])
        #expect(state.phase == .ending)
    }

    @Test func aReleasedOwnerThatNeverEndedStaysAlive() {
        let (state, effects) = run([.released])
        #expect(effects == [.none])
        #expect(state.phase == .alive && state.released)
    }

    @Test func closingMoreEntriesThanOpenedIsIgnored() {
        let (state, effects) = run([.entryClosed, .entryOpened])
        #expect(effects == [.none, .none])
        #expect(state.live == 1)
    }

    // MARK: ending

    @Test func endingTwiceQueuesOneVerdict() {
        let (state, effects) = run([.ended, .ended])
        #expect(effects == [.queueVerdict, .none])
        #expect(state.isEnding)
    }

    @Test func endingSettlesWhenReleasedWithNothingAlive() {
        let (state, effects) = run([.ended, .released])
        #expect(effects == [.queueVerdict, .forget])
        #expect(state.phase == .settled)
    }

    @Test func endingSettlesWhenItsLastEntryClosesAfterRelease() {
        let (state, effects) = run([.entryOpened, .ended, .released, .entryClosed])
        #expect(effects == [.none, .queueVerdict, .none, .forget])
        #expect(state.phase == .settled)
    }

    @Test func endingLeaksWhenTheOwnerObjectOutlivesTheGracePeriod() {
        let (state, effects) = run([.ended, .judged(coveredBy: nil)])
        #expect(effects == [.queueVerdict, .reportLeak])
        #expect(state.phase == .leaked && state.isReportedLeak)
    }

    @Test func endingLeaksWhenAnEntryOutlivesTheGracePeriod() {
        let (state, effects) = run([.entryOpened, .ended, .released, .judged(coveredBy: nil)])
        #expect(effects.last == .reportLeak)
        #expect(state.phase == .leaked)
    }

    @Test func endingIsCoveredWhenAnAncestorLeaks() {
        let (state, effects) = run([.ended, .judged(coveredBy: 7)])
        #expect(effects.last == .cover(by: 7))
        #expect(state.phase == .covered(by: 7))
        #expect(state.covers && !state.isReportedLeak && state.isEnding && !state.awaitsVerdict)
    }

    /// What an owner below it checks: it covers from its end (its verdict may yet find it
    /// leaking) for as long as it leaks, and not once it has settled.
    @Test func anOwnerCoversFromItsEndUntilItSettles() {
        #expect(!OwnerState().covers)
        #expect(run([.ended]).state.covers)
        #expect(run([.ended, .judged(coveredBy: nil)]).state.covers)
        #expect(run([.ended, .judged(coveredBy: 7)]).state.covers)
        #expect(!run([.ended, .released]).state.covers)
        #expect(!run([.ended, .judged(coveredBy: nil), .released]).state.covers)
    }

    // MARK: leaked

    @Test func aLeakReleasedWithNothingAliveIsReleasedLate() {
        let (state, effects) = run([.ended, .judged(coveredBy: nil), .released])
        #expect(effects.last == .releasedLate)
        #expect(state.phase == .settled)
    }

    @Test func aLeakWhoseLastSurvivorEndsAfterReleaseIsReleasedLate() {
        let (state, effects) = run([.entryOpened, .ended, .judged(coveredBy: nil), .released, .entryClosed])
        #expect(effects.suffix(2) == [.none, .releasedLate])
        #expect(state.phase == .settled)
    }

    @Test func aLeakIsJudgedOnce() {
        let (state, effects) = run([.ended, .judged(coveredBy: nil), .judged(coveredBy: nil), .ended])
        #expect(effects == [.queueVerdict, .reportLeak, .none, .none])
        #expect(state.phase == .leaked)
    }

    // MARK: covered

    @Test func aCoveredOwnerIsReportedOnceNoAncestorCoversIt() {
        let (state, effects) = run([.ended, .judged(coveredBy: 7), .uncovered(coveredBy: nil)])
        #expect(effects.last == .reportLeak)
        #expect(state.phase == .leaked)
    }

    @Test func aCoveredOwnerMovesToTheNextAncestorThatLeaks() {
        let (state, effects) = run([.ended, .judged(coveredBy: 7), .uncovered(coveredBy: 3)])
        #expect(effects.last == .cover(by: 3))
        #expect(state.phase == .covered(by: 3))
    }

    @Test func aCoveredOwnerThatGoesSettledQuietly() {
        let (state, effects) = run([.entryOpened, .ended, .judged(coveredBy: 7), .released, .entryClosed])
        #expect(effects.suffix(2) == [.none, .forget])
        #expect(state.phase == .settled)
    }

    // MARK: settled

    @Test func settledIgnoresEverything() {
        let settled = run([.ended, .released]).state
        let events: [OwnerState.Event] = [
            .ended, .released, .entryOpened, .entryClosed, .judged(coveredBy: nil),
            .uncovered(coveredBy: nil),
        ]
        let (state, effects) = run(events, from: settled)
        #expect(effects.allSatisfy { $0 == .none })
        #expect(state.phase == .settled)
    }

    @Test func aVerdictForAnOwnerGoneMeanwhileSettlesIt() {
        // Released and empty while ending settles at once; a verdict still queued finds it settled.
        let (state, effects) = run([.ended, .released, .judged(coveredBy: nil)])
        #expect(effects == [.queueVerdict, .forget, .none])
        #expect(state.phase == .settled)
    }
}
