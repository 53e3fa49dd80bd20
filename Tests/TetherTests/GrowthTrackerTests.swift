import Testing

@testable import Tether

/// The pure state machine behind one scope's checkpoints, driven with observations by hand.
@Suite struct GrowthTrackerTests {
    private typealias Tracker = GrowthTracker<String>

    /// One checkpoint at which each site in `counts` went from `before` (0 unless given) to its
    /// count.
    private static func seen(_ counts: [String: Int], before: [String: Int] = [:]) -> [(
        String, Tracker.Observation
    )] {
        counts.map { ($0.key, Tracker.Observation(live: $0.value, before: before[$0.key] ?? 0)) }
    }

    /// Checkpoints at which `site` went through `counts`, each from the one before (the first
    /// from 0); the counts of the episodes that started.
    private static func episodes(_ counts: [Int], repetitions: Int = 3) -> [[Int]] {
        var tracker = Tracker(repetitions: repetitions)
        var before = 0
        var started: [[Int]] = []
        for count in counts {
            started += tracker.checkpoint(seen(["bag": count], before: ["bag": before])).filter(\.isNew).map(
                \.counts)
            before = count
        }
        return started
    }

    @Test func aSiteThatRoseInThreeRepetitionsGrowsOnceAndStaysGrowing() {
        var tracker = Tracker(repetitions: 3)
        #expect(tracker.checkpoint(Self.seen(["bag": 1])).isEmpty)
        #expect(tracker.checkpoint(Self.seen(["bag": 2], before: ["bag": 1])).isEmpty)
        #expect(
            tracker.checkpoint(Self.seen(["bag": 3], before: ["bag": 2]))
                == [.init(site: "bag", counts: [1, 2, 3], isNew: true)])
        #expect(
            tracker.checkpoint(Self.seen(["bag": 5], before: ["bag": 3]))
                == [.init(site: "bag", counts: [2, 3, 5], isNew: false)])
    }

    @Test func twoRisesAreNotEnoughForThreeRepetitions() {
        #expect(Self.episodes([4, 8]).isEmpty)
    }

    @Test func twoRepetitionsGrowAtTheSecondRise() {
        #expect(Self.episodes([1, 2], repetitions: 2) == [[1, 2]])
    }

    @Test func aSiteThatRoseTwiceThenStayedFlatNeverGrows() {
        #expect(Self.episodes([1, 2, 2, 2]).isEmpty)
    }

    /// The reset rule: a site stops growing at the first repetition of its scope in which it did
    /// not rise, and a later run of rises is a new episode.
    @Test func growthStopsAtAFlatRepetitionAndALaterRunIsANewEpisode() {
        #expect(Self.episodes([1, 2, 3, 4, 4, 5, 6, 7, 7]) == [[1, 2, 3], [5, 6, 7]])
    }

    /// A repetition is judged on what happened in it: a site that rose in it rose, whatever it
    /// held at the scope's checkpoint before.
    @Test func aRiseIsMeasuredFromTheStartOfTheRepetitionNotFromTheScopesLastCount() {
        var tracker = Tracker(repetitions: 2)
        _ = tracker.checkpoint(Self.seen(["bag": 5], before: ["bag": 4]))
        // Between this scope's checkpoints, another scope's repetition took the site down to 2.
        #expect(tracker.checkpoint(Self.seen(["bag": 3], before: ["bag": 2])).map(\.counts) == [[5, 3]])
    }

    @Test func aSiteThatFellOrWasNotSeenStartsOver() {
        var tracker = Tracker(repetitions: 2)
        _ = tracker.checkpoint(Self.seen(["a": 3, "b": 1]))
        #expect(
            tracker.checkpoint(Self.seen(["a": 2, "b": 2], before: ["a": 3, "b": 1])).map(\.site) == ["b"])
        #expect(
            tracker.checkpoint(Self.seen(["a": 5], before: ["a": 2])).map(\.site) == [],
            "b not seen; a rose once after falling")
        #expect(tracker.count == 1, "only sites whose rises run are kept")
        #expect(tracker.checkpoint(Self.seen(["a": 6, "b": 1], before: ["a": 5])).map(\.site) == ["a"])
    }

    @Test func aCheckpointWhereNothingRoseForgetsEverySite() {
        var tracker = Tracker(repetitions: 3)
        _ = tracker.checkpoint(Self.seen(["a": 1, "b": 1]))
        #expect(tracker.count == 2)
        #expect(tracker.checkpoint([]).isEmpty)
        #expect(tracker.count == 0)
    }

    @Test func sitesGrowingTogetherComeInOrder() {
        var tracker = Tracker(repetitions: 1)
        #expect(tracker.checkpoint(Self.seen(["c": 1, "a": 1, "b": 1])).map(\.site) == ["a", "b", "c"])
    }

    @Test func atLeastOneRepetition() {
        var tracker = Tracker(repetitions: 0)
        #expect(tracker.repetitions == 1)
        #expect(tracker.checkpoint(Self.seen(["bag": 1])).map(\.isNew) == [true])
    }
}
