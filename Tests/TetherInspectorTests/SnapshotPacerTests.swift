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
        #expect(pacer.snapshotWanted(at: at(0)) == .take)
        #expect(pacer.taken(at: at(0)) == .wait)
        #expect(pacer.snapshotWanted(at: at(100)) == .take, "a whole interval later")
    }

    /// Many changes within an interval: one timer, one snapshot when it fires — and the last
    /// change is in it, because the snapshot is taken then.
    @Test func changesWithinAnIntervalShareOneSnapshot() {
        var pacer = SnapshotPacer(interval: interval)
        #expect(pacer.snapshotWanted(at: at(0)) == .take)
        #expect(pacer.taken(at: at(0)) == .wait)
        var actions: [SnapshotPacer.Action] = []
        for ms in stride(from: 1 as Int64, to: 100, by: 7) {
            actions.append(pacer.snapshotWanted(at: at(ms)))
        }
        #expect(actions.first == .arm(at(100)))
        #expect(actions.dropFirst().allSatisfy { $0 == .wait })
        #expect(pacer.timerFired() == .take)
        #expect(pacer.taken(at: at(100)) == .wait)
        #expect(pacer.snapshotWanted(at: at(150)) == .arm(at(200)), "the next one waits for its interval too")
    }

    /// A steady stream of changes gets a snapshot per interval: ten a second at 100 ms.
    @Test func aSteadyStreamIsSentOncePerInterval() {
        var pacer = SnapshotPacer(interval: interval)
        var sent: [Int64] = []
        var timer: Int64?
        for ms in 0..<1_000 as Range<Int64> {
            if let due = timer, due <= ms {
                timer = nil
                #expect(pacer.timerFired() == .take)
                #expect(pacer.taken(at: at(ms)) == .wait)
                sent.append(ms)
            }
            switch pacer.snapshotWanted(at: at(ms)) {
            case .take:
                #expect(pacer.taken(at: at(ms)) == .wait)
                sent.append(ms)
            case .arm(let deadline):
                timer = Int64((deadline.uptimeNanoseconds - at(0).uptimeNanoseconds) / 1_000_000)
            case .wait:
                break
            }
        }
        #expect(sent == Array(stride(from: 0, to: 1_000, by: 100)))
    }

    /// The last client leaving stops the observation: the ledger may then change unseen, so the
    /// next client gets a new snapshot — but at the pace, not at once: the interval since the last
    /// one is kept.
    @Test func theLastClientLeavingKeepsThePace() {
        var pacer = SnapshotPacer(interval: interval)
        #expect(pacer.taken(at: at(0)) == .wait)
        #expect(pacer.snapshotWanted(at: at(10)) == .arm(at(100)))
        pacer.stoppedObserving()
        #expect(!pacer.timerArmed && pacer.lastSent == at(0))
        #expect(pacer.snapshotWanted(at: at(20)) == .arm(at(100)), "not a snapshot per connection")
        pacer.stoppedObserving()  // that client left before its snapshot: none is taken
        #expect(pacer.snapshotWanted(at: at(150)) == .take, "a whole interval later")
    }

    /// Clients that connect, wait for their first snapshot and leave, one after another as fast
    /// as they can, against a ledger that never changes: ten snapshots a second at most.
    @Test func aConnectLoopIsPacedLikeChanges() {
        var pacer = SnapshotPacer(interval: interval)
        var sent: [Int64] = []
        var ms: Int64 = 0
        while ms < 1_000 {
            switch pacer.snapshotWanted(at: at(ms)) {
            case .take:
                sent.append(ms)
                #expect(pacer.taken(at: at(ms)) == .wait)
            case .arm(let deadline):
                ms = Int64((deadline.uptimeNanoseconds - at(0).uptimeNanoseconds) / 1_000_000)
                #expect(pacer.timerFired() == .take)
                #expect(pacer.taken(at: at(ms)) == .wait)
                sent.append(ms)
            case .wait:
                Issue.record("no timer is armed between two clients")
            }
            pacer.stoppedObserving()  // the client leaves once it has its snapshot
            ms += 1
        }
        #expect(sent == Array(stride(from: 0, through: 1_000, by: 100)))
    }

    /// One snapshot is taken at a time: a change or a client while one is being taken waits, and
    /// the next one follows an interval after it is ready — it includes them.
    @Test func whatComesWhileASnapshotIsTakenGetsTheNextOne() {
        var pacer = SnapshotPacer(interval: interval)
        #expect(pacer.snapshotWanted(at: at(0)) == .take)
        #expect(pacer.isTaking)
        #expect(
            pacer.snapshotWanted(at: at(150)) == .wait, "not a second one beside it, however long it takes")
        #expect(pacer.snapshotWanted(at: at(160)) == .wait)
        #expect(pacer.taken(at: at(200)) == .arm(at(300)), "one more, paced from when the last was ready")
        #expect(pacer.snapshotWanted(at: at(250)) == .wait)
        #expect(pacer.timerFired() == .take)
        #expect(pacer.taken(at: at(310)) == .wait, "nothing wanted meanwhile: none more")
        #expect(!pacer.timerArmed && !pacer.isTaking)
    }

    /// The last client leaving while a snapshot is taken: what it wanted goes with it; the
    /// snapshot is still ready later, and a client that joins meanwhile gets the next one.
    @Test func theLastClientLeavingWhileASnapshotIsTaken() {
        var pacer = SnapshotPacer(interval: interval)
        #expect(pacer.snapshotWanted(at: at(0)) == .take)
        #expect(pacer.snapshotWanted(at: at(10)) == .wait)
        pacer.stoppedObserving()
        #expect(pacer.taken(at: at(20)) == .wait, "no one wants the next")
        #expect(pacer.snapshotWanted(at: at(30)) == .arm(at(120)))
        #expect(pacer.timerFired() == .take)
        pacer.stoppedObserving()
        #expect(
            pacer.snapshotWanted(at: at(130)) == .wait,
            "one is being taken, started before this client joined: the next one is its")
        #expect(pacer.taken(at: at(140)) == .arm(at(240)))
    }
}
