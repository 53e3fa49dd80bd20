import TerminalUI
import TestSupport
import Testing
import Tether

@testable import Lab

/// A seeded random-key fuzz of the headless lab over the real scenarios, their own keys
/// included: it must never crash, and in bound mode nothing may be left after `q`.
@MainActor
@Suite struct FuzzTests {
    static func keys(count: Int, seed: UInt64, allowModeSwitch: Bool) -> [KeyStep] {
        var rng = SeededGenerator(seed: seed)
        var pool: [KeyStep] = [
            "1", "2", "3", "4", "5", "6", "7", "8", "r", "i", "?", "Esc", "Up", "Down", "j", "k", "Enter",
            "Tab", "Space", "Left", "Right", "PageDown", "Home", "x", "0", "Backspace", "F1",
            // The scenarios' own keys: lifecycle's cover, asyncSink's policy, Observed's handles.
            "n", "p", "b", "u", "d", "o", "c",
        ].map { .key(Key(name: $0)!) }
        pool += [.wait(.milliseconds(0)), .wait(.milliseconds(50)), .wait(.milliseconds(350))]
        if allowModeSwitch { pool.append(.key(.character("m"))) }
        return (0..<count).map { _ in pool.randomElement(using: &rng)! }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func boundModeNeverCrashesAndLeavesNothing(seed: UInt64) async {
        let lab = HeadlessLab(scenarios: Scenarios.all)
        await lab.run(Self.keys(count: 1000, seed: seed, allowModeSwitch: false))
        #expect(!lab.hasQuit)
        await lab.press(.character("q"))
        #expect(lab.dump().counters == zeroCounters, "seed \(seed)")
        #expect(lab.dump().leaks.isEmpty, "seed \(seed)")
    }

    @Test func bothModesNeverCrash() async {
        for (seed, size) in [
            (UInt64(7), Size(width: 120, height: 40)), (8, Size(width: 80, height: 24)),
            (9, Size(width: 30, height: 6)),
        ] {
            let lab = HeadlessLab(size: size, scenarios: Scenarios.all)
            await lab.run(Self.keys(count: 700, seed: seed, allowModeSwitch: true))
            await lab.press(.character("q"))
            #expect(lab.hasQuit)
            #expect(lab.dump().stack.isEmpty)
        }
    }
}
