import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import Tether

/// An object that lives as long as the app: it never ends, so no leak verdict judges it.
private final class Session: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// A sheet's view model: bound, it keeps its subscription in its own bag; leaky, in the session's.
private final class SheetModel: Sendable {
    static let line: UInt = #line + 6
    let bag = DisposeBag()

    init(session: Session, updates: PassthroughSubject<Int, Never>, leaky: Bool) {
        bag.track(self)
        updates.sink { [weak self] _ in _ = self }
            .store(boundTo: leaky ? session.bag : bag)
    }
}

private final class Plain {}

@Suite struct GrowthTests {
    /// Presents and dismisses a sheet `times` times, with a checkpoint at each dismissal.
    private func presentSheet(
        _ times: Int, leaky: Bool, session: Session, updates: PassthroughSubject<Int, Never>,
        in fixture: LedgerFixture
    ) {
        for _ in 0..<times {
            fixture.run { _ = SheetModel(session: session, updates: updates, leaky: leaky) }
            fixture.ledger.checkpoint()
        }
    }

    // MARK: What grows

    @Test func aSheetThatStoresItsSubscriptionInTheSessionsBagGrowsAndDoesNotLeak() throws {
        let fixture = LedgerFixture()
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(3, leaky: true, session: session, updates: updates, in: fixture)
        fixture.passGracePeriod()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        let report = try #require(snapshot.growth.first)
        #expect(snapshot.growth.count == 1)
        #expect(report.owner == OwnerID(typeName: "Session", serial: 1))
        #expect(report.kind == .subscription)
        #expect(report.site.description == "GrowthTests.swift:\(SheetModel.line)")
        #expect(report.counts == [1, 2, 3])
        #expect(report.live == 3)
        #expect(snapshot.leaks.isEmpty, "each sheet model went: no verdict finds anything")
        presentSheet(2, leaky: true, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.map(\.counts) == [[3, 4, 5]])
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.map(\.live) == [5])
    }

    @Test func aBoundSheetGrowsNothing() {
        let fixture = LedgerFixture()
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(5, leaky: false, session: session, updates: updates, in: fixture)
        fixture.passGracePeriod()
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.isEmpty)
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.isEmpty)
    }

    @Test func leakyThenBoundStopsGrowing() {
        let fixture = LedgerFixture()
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(3, leaky: true, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.count == 1)
        presentSheet(1, leaky: false, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.isEmpty)
    }

    @Test func tasksStoredInALongLivedBagGrow() throws {
        let fixture = LedgerFixture()
        let session = fixture.run { Session() }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let line: UInt = #line + 2
        for _ in 0..<3 {
            Task(boundTo: session.bag) { for await _ in stream {} }
            fixture.ledger.checkpoint()
        }
        let report = try #require(fixture.ledger.snapshotRearmingOnChange().growth.first)
        #expect(report.kind == .task)
        #expect(report.site.description == "GrowthTests.swift:\(line)")
        #expect(report.counts == [1, 2, 3])
        session.bag.dispose()
        continuation.finish()
    }

    @Test func observersAddedWithALongLivedBagGrow() throws {
        let fixture = LedgerFixture()
        let session = fixture.run { Session() }
        let value = LiveData(0)
        let line: UInt = #line + 2
        for _ in 0..<3 {
            value.add(observer: session, disposeBag: session.bag) { _ in }
            fixture.ledger.checkpoint()
        }
        let report = try #require(fixture.ledger.snapshotRearmingOnChange().growth.first)
        #expect(report.kind == .observer)
        #expect(report.site.description == "GrowthTests.swift:\(line)")
        #expect(report.live == 3)
    }

    // MARK: How many repetitions

    @Test func twoRepetitionsAreNotEnoughByDefault() {
        let fixture = LedgerFixture()
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(2, leaky: true, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.isEmpty)
        presentSheet(1, leaky: true, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.count == 1)
    }

    @Test func aLedgerOfTwoRepetitionsGrowsAtTheSecond() throws {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock, growthRepetitions: 2)
        #expect(ledger.growthRepetitions == 2)
        let session = Ledger.$current.withValue(ledger) { Session() }
        let updates = PassthroughSubject<Int, Never>()
        var growth: [[GrowthReport]] = []
        for _ in 0..<2 {
            updates.sink { _ in }.store(boundTo: session.bag)
            ledger.checkpoint()
            growth.append(ledger.snapshotRearmingOnChange().growth)
        }
        #expect(growth.map { $0.map(\.counts) } == [[], [[1, 2]]])
    }

    @Test func aSiteThatRoseTwiceThenStayedFlatDoesNotGrow() {
        let fixture = LedgerFixture()
        let heard = Recorder<GrowthReport>()
        let watch = fixture.ledger.onGrowth { heard.record($0) }
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(2, leaky: true, session: session, updates: updates, in: fixture)
        presentSheet(3, leaky: false, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.isEmpty)
        #expect(heard.events.isEmpty)
        watch.cancel()
    }

    // MARK: Episodes and handlers

    @Test func onGrowthHearsEachEpisodeOnceAndNothingAfterItsCancel() {
        let fixture = LedgerFixture()
        let heard = Recorder<[Int]>()
        let watch = fixture.ledger.onGrowth { heard.record($0.counts) }
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(4, leaky: true, session: session, updates: updates, in: fixture)
        #expect(heard.events == [[1, 2, 3]], "once, though it grew again at the fourth")
        presentSheet(1, leaky: false, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.isEmpty, "flat: stopped growing")
        presentSheet(3, leaky: true, session: session, updates: updates, in: fixture)
        #expect(heard.events == [[1, 2, 3], [5, 6, 7]], "a new episode")
        watch.cancel()
        presentSheet(1, leaky: false, session: session, updates: updates, in: fixture)
        presentSheet(3, leaky: true, session: session, updates: updates, in: fixture)
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.count == 1)
        #expect(heard.events == [[1, 2, 3], [5, 6, 7]])
    }

    @Test func aHandlerMayCheckpointEndLifetimesAndCancelItselfWithoutDeadlock() {
        let fixture = LedgerFixture()
        let ledger = fixture.ledger
        let heard = Recorder<String>()
        let other = fixture.run { Session() }
        let slot = LockedBox<AnyCancellable?>(nil)
        let watch = ledger.onGrowth { report in
            // Takes the lock.
            heard.record("\(report.owner) \(ledger.snapshotRearmingOnChange().growth.count)")
            ledger.checkpoint()  // re-enters: what it finds comes after this call
            other.bag.end()  // ends a lifetime: the ledger's lock, the verdict's timer
            slot.withLock { $0 }?.cancel()  // cancels itself from inside: must not wait for itself
        }
        slot.withLock { $0 = watch }
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(3, leaky: true, session: session, updates: updates, in: fixture)
        #expect(heard.events == ["Session#2 1"])
        presentSheet(4, leaky: true, session: session, updates: updates, in: fixture)
        #expect(heard.events == ["Session#2 1"])
    }

    // MARK: Ended owners

    @Test func entriesOfAnEndedOwnerAreLeaksNeverGrowth() throws {
        let fixture = LedgerFixture()
        let ledger = fixture.ledger
        let heard = Recorder<GrowthReport>()
        let watch = ledger.onGrowth { heard.record($0) }
        let object = Plain()
        let site = CallSite(fileID: "Module/Service.swift", line: 12)
        let owner = try #require(ledger.makeOwner(for: object, site: site, parent: nil))
        var entries: [LedgerEntry] = []
        for _ in 0..<3 {
            entries += [ledger.open(.task, owner: owner, site: site, bound: false)].compactMap { $0 }
            ledger.checkpoint()
        }
        #expect(ledger.snapshotRearmingOnChange().growth.count == 1)
        ledger.ownerEnded(owner)
        #expect(
            ledger.snapshotRearmingOnChange().growth.isEmpty, "an owner that ended is judged by its verdict")
        for _ in 0..<3 {
            entries += [ledger.open(.task, owner: owner, site: site, bound: false)].compactMap { $0 }
            ledger.checkpoint()
        }
        #expect(ledger.snapshotRearmingOnChange().growth.isEmpty)
        #expect(heard.events.count == 1)
        fixture.passGracePeriod()
        #expect(ledger.counters.leaks == 1)
        watch.cancel()
        for entry in entries { entry.end() }
    }

    @Test func aCheckpointWithoutGrowthChangesNothingForAProgramThatNeverCalledIt() {
        let fixture = LedgerFixture()
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        for _ in 0..<5 { updates.sink { _ in }.store(boundTo: session.bag) }
        #expect(fixture.ledger.snapshotRearmingOnChange().growth.isEmpty, "no checkpoint, no growth")
        #expect(fixture.ledger.state.withLock { $0.growth.scopes.isEmpty && $0.growth.touched.isEmpty })
    }

    // MARK: Reports

    @Test func aReportReadsLikeALeakReportWithAFix() {
        let report = GrowthReport(
            owner: OwnerID(typeName: "AppSession", serial: 1),
            ownerSite: CallSite(fileID: "App/AppSession.swift", line: 12), kind: .subscription,
            site: CallSite(fileID: "App/SheetViewModel.swift", line: 31), counts: [1, 2, 3], live: 3)
        #expect(
            report.description == """
                AppSession#1 grows: 3 subscriptions at SheetViewModel.swift:31, +1 per repetition (tracked at AppSession.swift:12)
                ╰─ live at the last 3 checkpoints: 1 → 2 → 3, and AppSession#1 is still alive
                   fix: bind the subscription to the screen that makes it (`.store(boundTo: model.bag)`), not to AppSession's bag
                """)
        #expect(report.signature == "AppSession grows subscription App/SheetViewModel.swift:31")
        let other = GrowthReport(
            owner: OwnerID(typeName: "AppSession", serial: 7), ownerSite: report.ownerSite,
            kind: .subscription, site: report.site, counts: [4, 6, 9], live: 9)
        #expect(other.signature == report.signature, "no serials: it groups across instances")
        #expect(other.headline.contains("+5 over 2 repetitions"))
    }

    @Test func reportGrowthLogsEachEpisodeAsOneWarning() throws {
        let fixture = LedgerFixture()
        let handler = InMemoryLogHandler()
        let reporting = fixture.ledger.reportGrowth(to: Logger(label: "growth") { _ in handler })
        let updates = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        presentSheet(4, leaky: true, session: session, updates: updates, in: fixture)
        let report = try #require(fixture.ledger.snapshotRearmingOnChange().growth.first)
        #expect(handler.entries.count == 1)
        let record = try #require(handler.entries.first)
        #expect(record.level == .warning)
        #expect(
            record.message.description.hasPrefix("Session#1 grows: 3 subscriptions at GrowthTests.swift:"))
        #expect(record.metadata["owner"] == "Session#1")
        #expect(record.metadata["signature"] == .string(report.signature))
        #expect(record.metadata["counts"] == .array(["1", "2", "3"]))
        reporting.cancel()
    }
}
