import Testing

@testable import Tether

/// The rule behind a scope's checkpoints, driven by hand: what a repetition saw of a site, a
/// site's runs of rises, and its counts as entries open and close.
@Suite struct GrowthRuleTests {
    /// The runs of one site in one scope that went through `counts` at its checkpoints, each a
    /// rise; the counts of the episodes that started.
    private static func episodes(_ counts: [Int?], repetitions: Int = 3) -> [[Int]] {
        var run = GrowthRun(scope: 1)
        var started: [[Int]] = []
        for (index, count) in counts.enumerated() {
            guard let count else { continue }  // nil: a checkpoint at which it did not rise
            if let found = run.rise(to: count, at: index + 1, repetitions: repetitions), found.isNew {
                started.append(found.counts)
            }
        }
        return started
    }

    // MARK: What a repetition saw

    @Test func aLeaksRepetitionRoseABusyOwnersDidNot() {
        #expect(GrowthObservation(start: 2, floor: 2, live: 3, peakBefore: 2).rose, "one more, none gone")
        #expect(
            !GrowthObservation(start: 2, floor: 1, live: 3, peakBefore: 2).rose, "one that was there went")
        #expect(!GrowthObservation(start: 2, floor: 2, live: 3, peakBefore: 5).rose, "under its peak")
        #expect(!GrowthObservation(start: 2, floor: 2, live: 2, peakBefore: 2).rose, "flat")
        #expect(GrowthObservation(start: 0, floor: 0, live: 1, peakBefore: 0).rose, "the first from nothing")
    }

    @Test func aSiteCountsItsRepetitionsLazily() {
        var count = SiteCount(site: 7, kind: .task, window: 0)
        let madeInWindow = count.change(by: 1, in: 0)
        #expect(!madeInWindow, "made in window 0: already new in it")
        _ = count.change(by: 1, in: 0)
        _ = count.change(by: -1, in: 0)
        #expect(count.observation(in: 0) == GrowthObservation(start: 0, floor: 0, live: 1, peakBefore: 0))
        #expect(
            count.observation(in: 1) == GrowthObservation(start: 1, floor: 1, live: 1, peakBefore: 2),
            "untouched in window 1: nothing moved")
        let firstInWindow = count.change(by: -1, in: 1)
        #expect(firstInWindow, "its first change in window 1")
        _ = count.change(by: 1, in: 1)
        #expect(count.observation(in: 1) == GrowthObservation(start: 1, floor: 0, live: 1, peakBefore: 2))
    }

    @Test func aNewSiteOfAnOwnerIsItsFirstChangeOfTheWindow() {
        var counts = SiteCounts()
        let firsts = [
            counts.change(site: 1, kind: .task, by: 1, in: 4),
            counts.change(site: 2, kind: .task, by: 1, in: 4),
            counts.change(site: 1, kind: .subscription, by: 1, in: 4),
            counts.change(site: 2, kind: .task, by: 1, in: 4),
            counts.change(site: 2, kind: .task, by: -1, in: 5),
        ]
        #expect(firsts == [true, true, true, false, true])
        let live = counts.withCount(site: 2, kind: .task) { $0.live }
        let none = counts.withCount(site: 3, kind: .task) { $0.live }
        #expect(live == 1)
        #expect(none == nil)
    }

    // MARK: Runs of rises

    @Test func threeRisesInARowGrowOnceAndTheCountsSlide() {
        var run = GrowthRun(scope: 1)
        #expect(run.rise(to: 1, at: 1, repetitions: 3) == nil)
        #expect(run.rise(to: 2, at: 2, repetitions: 3) == nil)
        #expect(
            run.rise(to: 3, at: 3, repetitions: 3).map { [$0.counts, [$0.isNew ? 1 : 0]] } == [
                [1, 2, 3], [1],
            ])
        #expect(
            run.rise(to: 5, at: 4, repetitions: 3).map { [$0.counts, [$0.isNew ? 1 : 0]] } == [
                [2, 3, 5], [0],
            ])
    }

    @Test func twoRisesAreNotEnoughForThree() { #expect(Self.episodes([4, 8]).isEmpty) }

    @Test func twoRepetitionsGrowAtTheSecondRiseOneAtTheFirst() {
        #expect(Self.episodes([1, 2], repetitions: 2) == [[1, 2]])
        #expect(Self.episodes([1, nil, 2], repetitions: 1) == [[1], [2]])
    }

    /// The reset rule: a site stops growing at the first repetition of its scope in which it did
    /// not rise, and a later run of rises is a new episode.
    @Test func growthStopsAtARepetitionWithoutARiseAndALaterRunIsANewEpisode() {
        #expect(Self.episodes([1, 2, 3, 4, nil, 5, 6, 7, nil]) == [[1, 2, 3], [5, 6, 7]])
        #expect(Self.episodes([1, 2, nil, 3, 4]).isEmpty)
    }

    /// A site runs in each scope it rises in; a run whose scope moved on without it is dropped
    /// when the site next rises.
    @Test func aSiteRunsInEachScopeItRisesIn() {
        var runs = GrowthRuns()
        var ordinals = [1: 0, 2: 0]
        func rise(in scope: Int, to count: Int) -> [Int]? {
            ordinals[scope]! += 1
            return runs.rise(
                in: scope, at: ordinals[scope]!, to: count, repetitions: 2, ordinals: ordinals)?.counts
        }
        #expect(rise(in: 1, to: 1) == nil)
        #expect(rise(in: 2, to: 2) == nil)
        #expect(rise(in: 1, to: 3) == [1, 3])
        #expect(rise(in: 2, to: 4) == [2, 4])
        ordinals[1]! += 1  // scope 1's checkpoint, at which the site did not rise
        #expect(rise(in: 2, to: 5) == [4, 5])
        #expect(rise(in: 1, to: 6) == nil, "scope 1's run was broken")
        #expect(rise(in: 1, to: 7) == [6, 7])
    }
}
