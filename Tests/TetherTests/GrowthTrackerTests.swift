import Testing

@testable import Tether

/// The pure state machine behind checkpoints, driven with counts by hand.
@Suite struct GrowthTrackerTests {
    private typealias Tracker = GrowthTracker<String>

    @Test func aSiteThatRoseAtThreeCheckpointsGrowsOnceAndStaysGrowing() {
        var tracker = Tracker(repetitions: 3)
        #expect(tracker.checkpoint(["bag": 1]).isEmpty)
        #expect(tracker.checkpoint(["bag": 2]).isEmpty)
        #expect(tracker.checkpoint(["bag": 3]) == [.init(site: "bag", counts: [1, 2, 3], isNew: true)])
        #expect(tracker.checkpoint(["bag": 5]) == [.init(site: "bag", counts: [2, 3, 5], isNew: false)])
    }

    @Test func twoRisesAreNotEnoughForThreeRepetitions() {
        var tracker = Tracker(repetitions: 3)
        #expect(tracker.checkpoint(["bag": 4]).isEmpty)
        #expect(tracker.checkpoint(["bag": 8]).isEmpty)
    }

    @Test func twoRepetitionsGrowAtTheSecondRise() {
        var tracker = Tracker(repetitions: 2)
        #expect(tracker.checkpoint(["bag": 1]).isEmpty)
        #expect(tracker.checkpoint(["bag": 2]) == [.init(site: "bag", counts: [1, 2], isNew: true)])
    }

    @Test func aSiteThatRoseTwiceThenStayedFlatNeverGrows() {
        var tracker = Tracker(repetitions: 3)
        for counts in [1, 2, 2, 2] {
            #expect(tracker.checkpoint(["bag": counts]).isEmpty)
        }
    }

    @Test func growthStopsAtAFlatCheckpointAndALaterRunIsANewEpisode() {
        var tracker = Tracker(repetitions: 3)
        var started: [[Int]] = []
        for count in [1, 2, 3, 4, 4, 5, 6, 7, 7] {
            started += tracker.checkpoint(["bag": count]).filter(\.isNew).map(\.counts)
        }
        #expect(started == [[1, 2, 3], [5, 6, 7]])
        #expect(tracker.checkpoint(["bag": 7]).isEmpty)
    }

    @Test func aSiteThatFallsOrVanishesStartsOver() {
        var tracker = Tracker(repetitions: 2)
        _ = tracker.checkpoint(["a": 3, "b": 1])
        #expect(tracker.checkpoint(["a": 2, "b": 2]).map(\.site) == ["b"])
        #expect(tracker.checkpoint(["a": 5]).map(\.site) == [], "b went to 0; a rose once after falling")
        #expect(tracker.count == 1, "only live sites are kept")
        #expect(tracker.checkpoint(["a": 6, "b": 1]).map(\.site) == ["a"])
    }

    @Test func sitesGrowingTogetherComeInOrder() {
        var tracker = Tracker(repetitions: 1)
        #expect(tracker.checkpoint(["c": 1, "a": 1, "b": 1]).map(\.site) == ["a", "b", "c"])
    }

    @Test func atLeastOneRepetition() {
        var tracker = Tracker(repetitions: 0)
        #expect(tracker.repetitions == 1)
        #expect(tracker.checkpoint(["bag": 1]).map(\.isNew) == [true])
    }
}
