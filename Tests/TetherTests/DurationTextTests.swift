import Testing
import Tether

/// The one way Tether and the lab tell a duration to a person, and count its milliseconds.
@Suite struct DurationTextTests {
    @Test(arguments: [
        (Duration.zero, "0ms"), (.microseconds(999), "0ms"), (.milliseconds(850), "850ms"),
        (.milliseconds(1000), "1.00s"), (.milliseconds(1254), "1.25s"), (.milliseconds(59_999), "59.99s"),
        (.seconds(60), "1m00s"), (.seconds(125), "2m05s"), (.seconds(3725), "62m05s"),
    ])
    func aDurationReadsCompactly(duration: Duration, text: String) {
        #expect(duration.compactText == text)
    }

    @Test func wholeMillisecondsRoundDown() {
        #expect(Duration.microseconds(1999).wholeMilliseconds == 1)
        #expect((Duration.seconds(2) + .nanoseconds(999_999)).wholeMilliseconds == 2000)
    }
}
