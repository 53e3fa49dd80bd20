import Testing

@testable import TetherMetrics

/// The pacing of a reporter's readings, driven directly.
@Suite struct ReportPacerTests {
    @Test func aChangeAfterAQuietSpellIsReadAtOnce() {
        var pacer = ReportPacer(interval: .seconds(1))
        #expect(pacer.ledgerChanged(at: .zero) == .read)
        pacer.read(at: .zero)
        #expect(pacer.ledgerChanged(at: .seconds(5)) == .read)
    }

    @Test func changesWithinTheIntervalWaitForOneTimer() {
        var pacer = ReportPacer(interval: .seconds(1))
        pacer.read(at: .seconds(10))
        #expect(pacer.ledgerChanged(at: .milliseconds(10_200)) == .arm(.seconds(11)))
        #expect(pacer.ledgerChanged(at: .milliseconds(10_500)) == .wait)
        #expect(pacer.timerFired() == .read)
        pacer.read(at: .seconds(11))
        #expect(pacer.ledgerChanged(at: .milliseconds(11_100)) == .arm(.seconds(12)))
    }

    @Test func anEndedPacerReadsNothingAndEndsOnce() {
        var pacer = ReportPacer(interval: .seconds(1))
        pacer.read(at: .zero)
        #expect(pacer.ledgerChanged(at: .milliseconds(100)) == .arm(.seconds(1)))
        let first = pacer.end()
        let second = pacer.end()
        #expect(first)
        #expect(!second)
        #expect(pacer.hasEnded)
        #expect(pacer.timerFired() == .wait)
        #expect(pacer.ledgerChanged(at: .seconds(9)) == .wait)
        pacer.read(at: .seconds(9))
        #expect(pacer.phase == .ended)
    }
}
