import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// Scenario 3: the fuse ends the long-lived consumer's subscription with its forwarder; the
/// weak-capture twin leaves it receiving nil.
@MainActor
@Suite struct FuseScenarioTests {
    @Test func consumerReceivesTheForwardersMappedOrientations() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("3 r r"))
        #expect(lab.dump().stack == ["home", "fuse"])
        #expect(lab.screenText.contains("Fuse (bound)"))
        #expect(lab.screenText.contains("#1 landscapeLeft (mapped #2)"))
        #expect(lab.screenText.contains("consumer #1 (this forwarder)  3 values  receiving"))
        #expect(lab.screenText.contains("fuse intact"))
    }

    @Test func boundDismissalBlowsTheFuseAndTheConsumerSeesFinished() async throws {
        // Wide enough that the consumer's status line is not wrapped beside the inspector.
        let lab = HeadlessLab(size: Size(width: 160, height: 40))
        let baseline = lab.dump().counters
        await lab.run(try KeyScript.parse("3 r r Esc wait:400 r"))
        #expect(lab.dump().counters == baseline)
        let snapshot = lab.environment.ledger.snapshot()
        #expect(snapshot.owners.isEmpty)
        #expect(snapshot.unowned.isEmpty, "the consumer holds no live entry")
        await lab.run(try KeyScript.parse("3"))
        #expect(lab.screenText.contains("#1 .finished — the fuse blew"))
        #expect(lab.screenText.contains("finished: fuse blew"))
        #expect(!lab.screenText.contains("nil"))
    }

    @Test func leakyConsumerKeepsReceivingNilNamedByTheHandOver() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("m 3 r r Esc wait:400 r r"))
        let dump = lab.dump()
        let line = try ScenarioSource.line(
            containing: "consumer.subscribe(to:", in: "Fuse/ForwarderViewModel.swift")
        #expect(
            dump.leaks == [
                LabDump.Leak(
                    owner: "ForwarderViewModel#1", kind: "subscription",
                    site: "ForwarderViewModel.swift:\(line)")
            ])
        #expect(dump.counters.zombies == 2, "one zombie per nil after dismissal")
        #expect(dump.counters.viewModels == 0, "the forwarder itself is gone")
        await lab.run(try KeyScript.parse("3"))
        #expect(lab.screenText.contains("#1 nil — its forwarder is gone"))
        #expect(lab.screenText.contains("3 values  2 nils"))
    }
}

/// Finds lines in the lab's scenario sources, so tests name the exact line a leak must cite.
enum ScenarioSource {
    struct Missing: Error { let text: String }

    /// The 1-based line of `Sources/Lab/Scenarios/<path>` holding `text` first.
    static func line(containing text: String, in path: String, filePath: String = #filePath) throws -> Int {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/Lab/Scenarios").standardized
        let source = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.contains(text) }) else { throw Missing(text: text) }
        return index + 1
    }
}
