import TerminalUI

@testable import Lab
@testable import Tether

/// A scenario whose behaviour the tests control, for testing the lab's shell apart from the
/// real scenarios. Bound: a subscription and a
/// task that ticks on the lab's clock, both in the view model's lifetime (a child of the
/// sheet's). Leaky: a subscription kept alive by a cycle through the view model, attributed
/// to it in the ledger, so it is named in the leak and its values after dismissal are zombies.
enum FakeScenario {
    static func make(number: Int = 1, id: String = "fake") -> Scenario {
        Scenario(
            id: id, number: number, title: "Fake \(number)", summary: "a test double", pattern: "a fake",
            origin: "from the tests", bound: "Bound: the fake ends.", leaky: "Leaky: the fake lingers.",
            make: { FakeViewModel(mode: $0, environment: $1, parent: $2.lifetime) })
    }
}

@MainActor
final class FakeViewModel {
    let lifetime: Lifetime
    var values = 0
    var ticks = 0
    private var cancellables = Set<AnyCancellable>()

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        lifetime = Lifetime(boundTo: parent, ledger: environment.ledger)
        lifetime.track(self)
        switch mode {
        case .bound:
            environment.device.orientationPublisher.sink { [weak self] _ in self?.values += 1 }.store(
                boundTo: lifetime)
            let clock = environment.clock
            let task = Task { [weak self] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: .milliseconds(50)) } catch { return }
                    self?.ticks += 1
                }
            }
            lifetime.bind(.call { task.cancel() }, kind: .task, site: CallSite())
        case .leaky:
            let entry = environment.ledger.open(
                .subscription, owner: lifetime.ownerRecord, site: CallSite(), bound: false)
            environment.device.orientationPublisher
                .sink { _ in
                    self.values += 1
                    entry?.delivered()
                }
                .store(in: &cancellables)
        }
    }
}

extension FakeViewModel: ScenarioContent {
    func statusLines(style: LabStyle) -> [Line] { [Line("Fake sheet: values \(values) ticks \(ticks)")] }
}

/// Runs a key script on a fresh headless lab.
@MainActor
func runLab(
    _ keys: String, scenarios: [Scenario] = [FakeScenario.make()], size: Size = Size(width: 120, height: 40)
)
    async throws -> HeadlessLab
{
    let lab = HeadlessLab(size: size, scenarios: scenarios)
    await lab.run(try KeyScript.parse(keys))
    return lab
}

/// Every counter zero.
let zeroCounters = LabDump.Counters(
    viewModels: 0, subscriptions: 0, tasks: 0, observers: 0, leaks: 0, zombies: 0)
