import Foundation
import InMemoryLogging
import Logging
import Synchronization
import TestSupport
import Testing
import Tether

/// A view model that forgets to store its loop: the leak LeakReport describes.
private final class Forgetful {
    /// Where it says it tracks itself and starts its loop (call sites are what callers pass).
    static let trackedAt = CallSite(fileID: #fileID, line: 1001)
    static let loopAt = CallSite(fileID: #fileID, line: 1002)
    let bag = DisposeBag()
    private(set) var task: Task<Void, Never>?

    init(values: TetherNotifications<Notification.Name>) {
        bag.track(self, fileID: Forgetful.trackedAt.fileID, line: Forgetful.trackedAt.line)
        task = Task.attributed(to: bag, fileID: Forgetful.loopAt.fileID, line: Forgetful.loopAt.line) {
            for await _ in values {}
        }
    }
}

/// An owner that a closure kept elsewhere holds strongly.
private final class Captured: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

private let poked = Notification.Name("LeakReportTests.poked")

@Suite struct LeakReportTests {
    /// Ends an owner whose object something else keeps, and lets its grace period pass.
    private func leakOwner(in fixture: LedgerFixture) -> Captured {
        let kept = fixture.run { Captured() }
        kept.bag.end()
        fixture.passGracePeriod()
        return kept
    }

    @Test func aReportNamesTheOwnerAndEachSurvivorWithWhatItDidAfterTheEnd() async throws {
        let fixture = LedgerFixture()
        let center = NotificationCenter()
        let model = fixture.run { Forgetful(values: center.tetherNotifications(named: poked)) }
        center.post(name: poked, object: nil)
        await waitUntil {
            fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 1
        }
        model.bag.end()
        center.post(name: poked, object: nil)
        center.post(name: poked, object: nil)
        await waitUntil { fixture.ledger.counters.zombies == 2 }
        fixture.passGracePeriod()

        let leak = try #require(fixture.ledger.snapshotRearmingOnChange().leaks.first)
        let report = leak.report
        #expect(report.owner == OwnerID(typeName: "Forgetful", serial: 1))
        #expect(report.ownerSite == Forgetful.trackedAt)
        #expect(report.endedAt == .zero)
        #expect(report.foundAt == fixture.ledger.gracePeriod)
        #expect(
            report.survivors == [
                LeakReport.Survivor(
                    kind: .task, site: Forgetful.loopAt, deliveries: 3, deliveriesAfterEnd: 2,
                    bound: false)
            ])
        #expect(report.signature == "Forgetful ← task TetherTests/LeakReportTests.swift:1002")
        #expect(
            report.description == """
                Forgetful#1 leaked: alive 300ms after its end (tracked at LeakReportTests.swift:1001)
                ╰─ task at LeakReportTests.swift:1002, not bound to its owner
                   3 values delivered, 2 after the end
                   fix: store the task in the owner's bag (`.store(boundTo: bag)`, or start it with `Task(boundTo: bag) { }`)
                """)
        model.task?.cancel()
        await model.task?.value
    }

    /// Zombie deliveries go on after the verdict: a snapshot's report counts them, while the
    /// report leak handlers got stays as the verdict found it.
    @Test func aSnapshotsReportCountsTheZombieDeliveriesSinceTheVerdict() async throws {
        let fixture = LedgerFixture()
        let center = NotificationCenter()
        let heard = Recorder<LeakReport>()
        let watch = fixture.ledger.onLeak { heard.record($0) }
        let model = fixture.run { Forgetful(values: center.tetherNotifications(named: poked)) }
        // Counted from when the loop iterates the notifications: until then the count is unknown.
        await waitUntil {
            fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 0
        }
        model.bag.end()
        fixture.passGracePeriod()
        center.post(name: poked, object: nil)
        await waitUntil { fixture.ledger.counters.zombies == 1 }

        let now = try #require(fixture.ledger.snapshotRearmingOnChange().leaks.first?.report)
        #expect(now.survivors.map(\.deliveriesAfterEnd) == [1])
        #expect(now.description.contains("1 value delivered, 1 after the end"))
        #expect(heard.events.map { $0.survivors.map(\.deliveriesAfterEnd) } == [[0]])
        #expect(now.signature == heard.events.first?.signature, "the same leak, counted further")
        model.task?.cancel()
        await model.task?.value
        let ended = try #require(fixture.ledger.snapshotRearmingOnChange().leaks.first?.report)
        #expect(ended.survivors == now.survivors, "a survivor that ended keeps its last counts")
        watch.cancel()
    }

    @Test func anOwnerThatOutlivesItsEndWithNothingBoundIsItsOwnSurvivor() throws {
        let fixture = LedgerFixture()
        let kept = leakOwner(in: fixture)
        let report = try #require(fixture.ledger.snapshotRearmingOnChange().leaks.first?.report)
        #expect(report.survivors.isEmpty)
        #expect(report.culprit == nil)
        #expect(report.signature == "Captured ← itself")
        #expect(report.description.contains("the owner object itself"))
        #expect(report.description.contains("[weak self]"))
        _ = kept
    }

    @Test func theSignatureIsTheSameForEveryInstanceAndEveryLedger() throws {
        let first = LedgerFixture()
        let second = LedgerFixture()
        var kept = [leakOwner(in: first), leakOwner(in: first), leakOwner(in: first)]
        kept.append(leakOwner(in: second))
        let signatures =
            (first.ledger.snapshotRearmingOnChange().leaks + second.ledger.snapshotRearmingOnChange().leaks)
            .map(\.signature)
        #expect(signatures.count == 4)
        #expect(Set(signatures).count == 1)
        #expect(!signatures[0].contains("#"), "no serial")
        let groups = first.ledger.snapshotRearmingOnChange().leakGroups
        #expect(groups.map(\.count) == [3])
        #expect(groups.first?.signature == signatures[0])
        kept.removeAll()
    }

    // MARK: onLeak

    @Test func aHandlerHearsOfEachLeakOnceAndNotOfItsLateRelease() {
        let fixture = LedgerFixture()
        let heard = Recorder<String>()
        let watch = fixture.ledger.onLeak { heard.record($0.owner.description) }
        var kept: Captured? = leakOwner(in: fixture)
        #expect(heard.events == ["Captured#1"])
        kept = nil
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.isEmpty, "released late")
        fixture.passGracePeriod()
        #expect(heard.events == ["Captured#1"])
        watch.cancel()
        _ = kept
    }

    @Test func aCancelledHandlerIsNeverCalled() {
        let fixture = LedgerFixture()
        let heard = Recorder<String>()
        fixture.ledger.onLeak { heard.record($0.owner.description) }.cancel()
        let kept = leakOwner(in: fixture)
        #expect(heard.events.isEmpty)
        #expect(fixture.ledger.counters.leaks == 1)
        _ = kept
    }

    @Test func aHandlerMayReenterTheLedgerAndCancelItself() {
        let fixture = LedgerFixture()
        let heard = Recorder<Int>()
        let other = fixture.run { Captured() }
        let ledger = fixture.ledger
        let watch = Slot<AnyCancellable>()  // lets the handler reach its own registration
        watch.put(
            ledger.onLeak { _ in
                heard.record(ledger.snapshotRearmingOnChange().leaks.count)  // takes the ledger's lock
                other.bag.end()  // records an end, schedules a verdict
                watch.value?.cancel()  // cancels itself from inside
            })
        let kept = leakOwner(in: fixture)
        #expect(heard.events == [1])
        fixture.passGracePeriod()  // `other` leaks too; the handler is gone
        #expect(heard.events == [1])
        #expect(fixture.ledger.counters.leaks == 2)
        _ = (kept, other)
    }

    @Test func noHandlerCallStartsAfterCancelHasReturned() async {
        for _ in 0..<50 {
            let fixture = LedgerFixture()
            let race = CancelRace()
            let watch = fixture.ledger.onLeak { _ in
                if race.cancelled.load(ordering: .acquiring) { race.late.add(1, ordering: .relaxed) }
            }
            let box = Slot(watch)
            var kept: [Captured] = []
            for _ in 0..<20 {
                let owner = fixture.run { Captured() }
                owner.bag.end()
                kept.append(owner)
            }
            let (clock, grace) = (fixture.clock, fixture.ledger.gracePeriod)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { clock.advance(by: grace) }
                group.addTask {
                    box.value!.cancel()
                    race.cancelled.store(true, ordering: .releasing)
                }
            }
            #expect(race.late.load(ordering: .relaxed) == 0)
            kept.removeAll()
        }
    }

    // MARK: reportLeaks(to:)

    @Test func eachLeakIsOneWarningWithTheTraceHeadlineAndItsMetadata() throws {
        let fixture = LedgerFixture()
        let handler = InMemoryLogHandler()
        let reporting = fixture.ledger.reportLeaks(to: Logger(label: "leaks") { _ in handler })
        let kept = leakOwner(in: fixture)
        let report = try #require(fixture.ledger.snapshotRearmingOnChange().leaks.first?.report)
        #expect(handler.entries.count == 1)
        let record = try #require(handler.entries.first)
        #expect(record.level == .warning)
        #expect(record.message.description == report.headline)
        #expect(record.metadata["owner"] == "Captured#1")
        #expect(record.metadata["signature"] == .string(report.signature))
        #expect(record.metadata["site"] == .string(report.ownerSite.description))
        #expect(record.metadata["survivors"] == .array([]))
        reporting.cancel()
        _ = kept
    }
}

/// Whether a handler ran after its cancellation had returned.
private final class CancelRace: Sendable {
    let cancelled = Atomic<Bool>(false)
    let late = Atomic<Int>(0)
}
