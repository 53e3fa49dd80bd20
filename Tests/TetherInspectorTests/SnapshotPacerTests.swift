import NIOCore
import Testing

@testable import TetherInspector

@Suite struct SnapshotPacerTests {
    let interval = TimeAmount.milliseconds(100)

    func at(_ milliseconds: Int64) -> NIODeadline {
        .uptimeNanoseconds(UInt64(1_000_000_000 + milliseconds * 1_000_000))
    }

    @Test func aChangeAfterAQuietSpellIsSentAtOnce() {
        var pacer = SnapshotPacer(interval: interval)
        #expect(pacer.ledgerChanged(at: at(0)) == .send)
        pacer.sent(at: at(0))
        #expect(pacer.ledgerChanged(at: at(100)) == .send, "a whole interval later")
    }

    /// Many changes within an interval: one timer, one snapshot when it fires — and the last
    /// change is in it, because the snapshot is taken then.
    @Test func changesWithinAnIntervalShareOneSnapshot() {
        var pacer = SnapshotPacer(interval: interval)
        #expect(pacer.ledgerChanged(at: at(0)) == .send)
        pacer.sent(at: at(0))
        var actions: [SnapshotPacer.Action] = []
        for ms in stride(from: 1 as Int64, to: 100, by: 7) { actions.append(pacer.ledgerChanged(at: at(ms))) }
        #expect(actions.first == .arm(at(100)))
        #expect(actions.dropFirst().allSatisfy { $0 == .wait })
        #expect(pacer.timerFired() == .send)
        pacer.sent(at: at(100))
        #expect(pacer.ledgerChanged(at: at(150)) == .arm(at(200)), "the next one waits for its interval too")
    }

    /// A steady stream of changes gets a snapshot per interval: ten a second at 100 ms.
    @Test func aSteadyStreamIsSentOncePerInterval() {
        var pacer = SnapshotPacer(interval: interval)
        var sent: [Int64] = []
        var timer: Int64?
        for ms in 0..<1_000 as Range<Int64> {
            if let due = timer, due <= ms {
                timer = nil
                #expect(pacer.timerFired() == .send)
                pacer.sent(at: at(ms))
                sent.append(ms)
            }
            switch pacer.ledgerChanged(at: at(ms)) {
            case .send:
                pacer.sent(at: at(ms))
                sent.append(ms)
            case .arm(let deadline):
                timer = Int64((deadline.uptimeNanoseconds - at(0).uptimeNanoseconds) / 1_000_000)
            case .wait:
                break
            }
        }
        #expect(sent == Array(stride(from: 0, to: 1_000, by: 100)))
    }

    @Test func theLastClientLeavingResetsThePace() {
        var pacer = SnapshotPacer(interval: interval)
        pacer.sent(at: at(0))
        #expect(pacer.ledgerChanged(at: at(10)) == .arm(at(100)))
        pacer.reset()
        #expect(!pacer.timerArmed && pacer.lastSent == nil)
        #expect(pacer.ledgerChanged(at: at(20)) == .send)
    }
}
