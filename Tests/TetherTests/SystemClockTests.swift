import Testing
import Tether

@Suite struct SystemClockTests {
    /// `SystemClock` reads the clock `ContinuousClock` reads, in nanoseconds from its origin: every
    /// reading falls between the elapsed times `ContinuousClock` brackets it with.
    @Test func readsTheElapsedTimeOfTheContinuousClock() {
        let beforeOrigin = ContinuousClock.now
        let clock = SystemClock()
        let afterOrigin = ContinuousClock.now
        var previous = Duration.zero
        for _ in 0..<1000 {
            let start = ContinuousClock.now
            let reading = clock.now
            let end = ContinuousClock.now
            #expect(reading >= start - afterOrigin)
            #expect(reading <= end - beforeOrigin)
            #expect(reading >= previous)
            previous = reading
        }
    }
}
