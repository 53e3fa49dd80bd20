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
        let forwarder = try lab.viewModel(as: ForwarderViewModel.self)
        #expect(forwarder.mode == .bound)
        #expect(forwarder.mapped == 3)
        #expect(forwarder.lastMapped == "portraitUpsideDown (mapped #3)")
        #expect(
            forwarder.consumer.subscriptions == [
                OrientationConsumer.Subscription(
                    number: 1, forwarder: "ForwarderViewModel#1", values: 3, nils: 0, state: .receiving)
            ])
        #expect(forwarder.subscriptionNumber == 1)
        #expect(forwarder.isFuseBlown == false)
    }

    @Test func boundDismissalBlowsTheFuseAndTheConsumerSeesFinished() async throws {
        let lab = HeadlessLab()
        let baseline = lab.dump().counters
        await lab.run(try KeyScript.parse("3 r r Esc wait:400 r"))
        #expect(lab.dump().counters == baseline)
        let snapshot = lab.environment.ledger.snapshotRearmingOnChange()
        #expect(snapshot.owners.isEmpty)
        #expect(snapshot.unowned.isEmpty, "the consumer holds no live entry")
        await lab.run(try KeyScript.parse("3"))
        let consumer = try lab.viewModel(as: ForwarderViewModel.self).consumer
        #expect(
            consumer.subscription(1)
                == OrientationConsumer.Subscription(
                    number: 1, forwarder: "ForwarderViewModel#1", values: 3, nils: 0, state: .finished))
        #expect(consumer.subscriptions.allSatisfy { $0.nils == 0 }, "no nil ever reached the consumer")
    }

    @Test func leakyConsumerKeepsReceivingNilNamedByTheHandOver() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("m 3 r r Esc wait:400 r r"))
        let dump = lab.dump()
        let site = try scenarioSite(containing: "consumer.subscribe(to:", in: "Fuse/ForwarderViewModel.swift")
        #expect(
            dump.leaks == [
                LabDump.Leak(
                    owner: "ForwarderViewModel#1", kind: "subscription",
                    site: site)
            ])
        #expect(dump.counters.zombies == 2, "one zombie per nil after dismissal")
        #expect(dump.counters.viewModels == 0, "the forwarder itself is gone")
        await lab.run(try KeyScript.parse("3"))
        let consumer = try lab.viewModel(as: ForwarderViewModel.self).consumer
        #expect(
            consumer.subscription(1)
                == OrientationConsumer.Subscription(
                    number: 1, forwarder: "ForwarderViewModel#1", values: 3, nils: 2, state: .receiving))
    }
}
