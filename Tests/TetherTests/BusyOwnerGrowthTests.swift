import TestSupport
import Testing

@testable import Tether

/// An owner that lives as long as the program: a server, a service.
private final class Server {}

/// Busy owners whose live count is bounded are not growth, however their count moves between
/// checkpoints; a leak beside them still is. The probes' schedules are replayed on one thread from
/// a seed, through the ledger's own recording: the rule itself, deterministic.
@Suite struct BusyOwnerGrowthTests {
    private static let taskSite = CallSite(fileID: "Server/Server.swift", line: 27)
    private static let leakSite = CallSite(fileID: "Server/Server.swift", line: 41)

    /// A ledger, one owner in it, and what its checkpoints reported.
    private struct Probe {
        let ledger = Ledger(clock: ManualClock())
        let owner: OwnerRecord
        let heard = Recorder<GrowthReport>()
        let watch: AnyCancellable
        /// The live tasks at each checkpoint, for the rule the ledger had before.
        var counts: [Int] = []

        init() throws {
            owner = try #require(
                ledger.makeOwner(
                    for: Server(), site: CallSite(fileID: "Server/main.swift", line: 3), parent: nil))
            let heard = heard
            watch = ledger.onGrowth { heard.record($0) }
        }

        func open(at site: CallSite, _ kind: EntryKind = .task) -> LedgerEntry? {
            ledger.open(kind, owner: owner, site: site, bound: true)
        }

        mutating func checkpoint() {
            ledger.checkpoint(scope: "request")
            counts.append(ledger.counters.tasks)
        }

        /// The episodes the rule before would have reported: the count rose at three checkpoints
        /// in a row.
        var episodesOfTheRuleBefore: Int {
            var (rises, episodes, before) = (0, 0, 0)
            for count in counts {
                rises = count > before ? rises + 1 : 0
                if rises == 3 { episodes += 1 }
                before = count
            }
            return episodes
        }
    }

    /// A server that runs each request as a task (1–20 ms of work, 400 requests 2 ms apart) and
    /// checkpoints when each has been served; `leaking`, each request also leaves a subscription
    /// under the server that never ends.
    private static func serve(seed: UInt64, leaking: Bool) throws -> Probe {
        var random = SeededGenerator(seed: seed)
        var probe = try Probe()
        // (time in µs, order at one time, request, what): 0 start, 1 served.
        var events: [(time: Int, order: Int, request: Int)] = []
        for request in 0..<400 {
            let start = request * 2_000
            events.append((start, 0, request))
            events.append((start + Int.random(in: 1_000...20_000, using: &random), 1, request))
        }
        events.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        var tasks: [Int: LedgerEntry] = [:]
        var leaked: [LedgerEntry] = []
        for event in events {
            if event.order == 0 {
                tasks[event.request] = probe.open(at: taskSite)
                if leaking { leaked += [probe.open(at: leakSite, .subscription)].compactMap { $0 } }
            } else {
                probe.checkpoint()  // inside the request's task, at its end: it is still live
                tasks.removeValue(forKey: event.request)?.end()
            }
        }
        #expect(probe.ledger.counters.tasks == 0)
        for entry in leaked { entry.end() }
        return probe
    }

    @Test(arguments: 0..<10 as Range<UInt64>)
    func aBusyServerIsNotGrowth(seed: UInt64) throws {
        let probe = try Self.serve(seed: seed, leaking: false)
        #expect(probe.heard.events.isEmpty, "\(probe.heard.events.first.map(\.description) ?? "")")
        #expect(probe.counts.max() ?? 0 <= 12, "its live count is bounded")
    }

    @Test func theRuleBeforeCalledTheBusyServerGrowing() throws {
        let episodes = try (0..<10 as Range<UInt64>).map {
            try Self.serve(seed: $0, leaking: false).episodesOfTheRuleBefore
        }
        #expect(episodes.reduce(0, +) > 0, "the probe is one that fooled the rule before")
    }

    @Test func aLeakBesideTheBusyTasksGrowsAtTheThirdRequest() throws {
        let probe = try Self.serve(seed: 1, leaking: true)
        let first = try #require(probe.heard.events.first)
        // Requests start between two served ones zero, one or more at a time: the leak's episodes
        // end where none started, and start again.
        #expect(probe.heard.events.allSatisfy { $0.site == Self.leakSite }, "never the busy tasks")
        #expect(first.site == Self.leakSite)
        #expect(first.kind == .subscription)
        #expect(first.counts.count == 3)
        #expect(first.counts.last ?? 0 <= 12, "found within the first requests served")
    }

    /// Eight threads each adding then removing an entry at one site, a checkpointer beside them:
    /// each step one of the nine runs. A thread is preempted between its add and its remove one
    /// time in ten; the checkpointer gets a ninth of the steps, so most repetitions are a step or
    /// two long. `accumulating`: a tenth actor adds one entry at another site at every checkpoint.
    private static func race(seed: UInt64, accumulating: Bool) throws -> Probe {
        var random = SeededGenerator(seed: seed)
        var probe = try Probe()
        var holding: [LedgerEntry?] = Array(repeating: nil, count: 8)
        var kept: [LedgerEntry] = []
        var running: Int?
        for _ in 0..<20_000 {
            if let thread = running, let entry = holding[thread], Int.random(in: 0..<10, using: &random) != 0
            {
                entry.end()
                holding[thread] = nil
                continue
            }
            if Int.random(in: 0..<9, using: &random) == 0 {
                probe.checkpoint()
                if accumulating { kept += [probe.open(at: leakSite)].compactMap { $0 } }
                running = nil
                continue
            }
            let thread = Int.random(in: 0..<8, using: &random)
            running = thread
            if let entry = holding[thread] {
                entry.end()
                holding[thread] = nil
            } else {
                holding[thread] = probe.open(at: taskSite)
            }
        }
        for entry in holding.compactMap({ $0 }) + kept { entry.end() }
        return probe
    }

    @Test(arguments: 0..<10 as Range<UInt64>)
    func eightThreadsOnOneSiteAreNotGrowth(seed: UInt64) throws {
        let probe = try Self.race(seed: seed, accumulating: false)
        #expect(probe.heard.events.isEmpty, "\(probe.heard.events.first.map(\.description) ?? "")")
    }

    @Test func theRuleBeforeCalledTheEightThreadsGrowing() throws {
        let episodes = try (0..<10 as Range<UInt64>).map {
            try Self.race(seed: $0, accumulating: false).episodesOfTheRuleBefore
        }
        #expect(episodes.reduce(0, +) > 0)
    }

    @Test func oneMorePerRepetitionBesideTheEightThreadsGrowsAtTheThird() throws {
        let probe = try Self.race(seed: 3, accumulating: true)
        let first = try #require(probe.heard.events.first)
        #expect(first.site == Self.leakSite)
        #expect(first.counts == [1, 2, 3])
        #expect(probe.heard.events.count == 1)
    }
}
