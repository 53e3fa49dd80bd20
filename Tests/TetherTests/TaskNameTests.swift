import Foundation
import Testing
import Tether

/// Every task Tether starts is named by its owner and call site (`Task.name`), so the runtime's
/// own tools (lldb's `task list`, swift-inspect) can say whose task a stuck one is. Each test
/// reads the name inside the task and hands it out on a stream.
@Suite struct TaskNameTests {
    /// The names the tasks heard, in order.
    struct Names {
        let continuation: AsyncStream<String?>.Continuation
        private var iterator: AsyncStream<String?>.Iterator

        init() {
            let (stream, continuation) = AsyncStream.makeStream(of: String?.self)
            self.continuation = continuation
            iterator = stream.makeAsyncIterator()
        }

        mutating func next() async -> String?? { await iterator.next() }
    }

    /// `TaskNameTests.swift:LINE`.
    static func site(_ line: Int) -> String { "TaskNameTests.swift:\(line)" }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aBoundTaskIsNamedByItsOwnerAndCallSite() async {
        let fixture = LedgerFixture()
        var names = Names()
        let owner = fixture.run { StreamsOwner() }
        let line = #line + 1
        Task(boundTo: owner.bag) { [names = names.continuation] in names.yield(Task.name) }
        #expect(await names.next() == "StreamsOwner#1 \(Self.site(line))")
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func anAttributedTaskIsNamedAsABoundOne() async {
        let fixture = LedgerFixture()
        var names = Names()
        let owner = fixture.run { StreamsOwner() }
        let line = #line + 1
        Task.attributed(to: owner.bag) { [names = names.continuation] in names.yield(Task.name) }
        #expect(await names.next() == "StreamsOwner#1 \(Self.site(line))")
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aLoopsTaskIsNamedAndEachOwnerBringsItsOwnId() async {
        let fixture = LedgerFixture()
        var names = Names()
        let (first, second) = fixture.run { (StreamsOwner(), StreamsOwner()) }
        var lines: [Int] = []
        for owner in [first, second] {
            let (values, feed) = AsyncStream.makeStream(of: Int.self)
            lines.append(#line + 1)
            values.forEach(boundTo: owner.bag) { [names = names.continuation] _ in names.yield(Task.name) }
            feed.yield(1)
            feed.finish()
        }
        let heard = Set([await names.next(), await names.next()].compactMap { $0 })
        // One site, two owners: the site's part is shared, the owner's is each task's own.
        #expect(heard == ["StreamsOwner#1 \(Self.site(lines[0]))", "StreamsOwner#2 \(Self.site(lines[1]))"])
        #expect(lines[0] == lines[1])
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aTaskWithNoOwnerIsNamedByItsSiteAlone() async {
        let fixture = LedgerFixture()
        var names = Names()
        let lifetime = fixture.run { Lifetime() }  // never tracked: no owner
        let line = #line + 1
        Task(boundTo: lifetime) { [names = names.continuation] in names.yield(Task.name) }
        #expect(await names.next() == Self.site(line))
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func withTheLedgerOffTheSiteStillNamesTheTask() async {
        let ledger = Ledger(isEnabled: false)
        var names = Names()
        let owner = Ledger.$current.withValue(ledger) { StreamsOwner() }
        let line = #line + 1
        Task(boundTo: owner.bag) { [names = names.continuation] in names.yield(Task.name) }
        #expect(await names.next() == Self.site(line))
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func asyncSinkBodiesAreNamedByTheSinksSite() async {
        let fixture = LedgerFixture()
        var names = Names()
        let subject = PassthroughSubject<Int, Never>()
        let line = #line + 1
        let sink = fixture.run {
            subject.asyncSink { [names = names.continuation] _ in names.yield(Task.name) }
        }
        subject.send(1)
        subject.send(2)
        #expect(await names.next() == Self.site(line + 1))
        #expect(await names.next() == Self.site(line + 1))
        sink.cancel()
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func repeatOnLifecycleRunsAreNamedByItsSite() async {
        let lifecycle = Lifecycle()
        var names = Names()
        lifecycle.move(to: .started)
        let line = #line + 2
        let runs = Task { [names = names.continuation] in
            await lifecycle.repeatOnLifecycle(.started) { names.yield(Task.name) }
        }
        #expect(await names.next() == Self.site(line))
        lifecycle.move(to: .destroyed)
        await runs.value
    }
}
