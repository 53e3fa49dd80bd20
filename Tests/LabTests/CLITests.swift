import Foundation
import Testing

@testable import Lab

/// The real binary's command line: flags, output, exit codes, one-line errors.
@Suite struct CLITests {
    @Test func headlessPrintsTheDesignsJSON() throws {
        let r = try LabBinary.run(["--headless", "--keys", "1 r r"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let dump = try JSONDecoder().decode(LabDump.self, from: Data(r.stdout.utf8))
        #expect(dump.stack == ["home", "orientation"])
        #expect(dump.orientation == "portraitUpsideDown")
        #expect(dump.counters.viewModels == 1)
        #expect(dump.counters.subscriptions == 1 && dump.counters.tasks == 1, "publisher and sequence")
    }

    /// `growth` lists the sites growing now as `{owner, kind, site, live}`: none after bound visits,
    /// the session's after three leaky ones.
    @Test func headlessJSONHasGrowth() throws {
        let bound = try LabBinary.run(["--headless", "--keys", "7 Esc 7 Esc 7 Esc", "--dump", "json"])
        #expect(bound.status == 0)
        let b = try #require(
            try JSONSerialization.jsonObject(with: Data(bound.stdout.utf8)) as? [String: Any])
        #expect((b["growth"] as? [Any])?.isEmpty == true)
        let leaky = try LabBinary.run(["--headless", "--keys", "m 7 Esc 7 Esc 7 Esc", "--dump", "json"])
        #expect(leaky.status == 0)
        let l = try #require(
            try JSONSerialization.jsonObject(with: Data(leaky.stdout.utf8)) as? [String: Any])
        let growth = try #require(l["growth"] as? [[String: Any]])
        #expect(growth.count == 1)
        #expect(Set(growth[0].keys) == ["owner", "kind", "site", "live", "scope"])
        #expect(growth[0]["scope"] as? String == "accumulation", "the dismissed sheet's id")
        #expect(growth[0]["owner"] as? String == "AppSession#1")
        #expect(growth[0]["kind"] as? String == "subscription")
        #expect((growth[0]["site"] as? String)?.hasPrefix("AccumulationViewModel.swift:") == true)
        #expect(growth[0]["live"] as? Int == 3)
        #expect((l["leaks"] as? [Any])?.isEmpty == true)
    }

    @Test func bundledScriptsRunFromAnyDirectory() throws {
        let bound = try LabBinary.run(["--headless", "--script", "bound-orientation"])
        #expect(bound.status == 0)
        let b = try JSONDecoder().decode(LabDump.self, from: Data(bound.stdout.utf8))
        #expect(b.counters == zeroCounters && b.stack == ["home"])
        let leaky = try LabBinary.run(["--headless", "--script", "leaky-orientation.keys"])
        #expect(leaky.status == 0)
        let l = try JSONDecoder().decode(LabDump.self, from: Data(leaky.stdout.utf8))
        #expect(l.leaks.map(\.owner) == ["OrientationViewModel#1"])
        #expect(l.leaks.map(\.kind) == ["task"])
        #expect(l.leaks.first?.site.hasPrefix("OrientationViewModel.swift:") == true)
        #expect(l.counters.zombies == 2, "the two rotations after the dismissal reach the dead loop")
    }

    /// The tour presents every scenario in both modes: bound ends where it began, leaky leaves
    /// one leak per scenario, each named by its own view model — but accumulation, whose
    /// session's bag grows instead.
    @Test func tourVisitsEveryScenarioInBothModes() throws {
        let r = try LabBinary.run(["--headless", "--script", "tour"])
        #expect(r.status == 0)
        let dump = try JSONDecoder().decode(LabDump.self, from: Data(r.stdout.utf8))
        #expect(dump.stack == ["home"])
        #expect(dump.mode == "leaky")
        #expect(dump.leaks.count == Scenarios.all.count - 1, "one leak per scenario but accumulation")
        #expect(dump.growth.map(\.owner) == ["AppSession#1"])
    }

    @Test func scriptFilesWithComments() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID()).keys")
        try "# present and rotate\n1\nr # once\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try LabBinary.run(["--headless", "--script", file.path])
        #expect(r.status == 0)
        let dump = try JSONDecoder().decode(LabDump.self, from: Data(r.stdout.utf8))
        #expect(dump.orientation == "landscapeLeft")
        #expect(dump.stack == ["home", "orientation"])
    }

    @Test func dumpScreenPrintsTheLastFrame() throws {
        let r = try LabBinary.run(["--headless", "--size", "100x30", "--keys", "m", "--dump", "screen"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.contains("Tether Lab") == true)
        #expect(lines.first?.contains("mode leaky") == true)
        #expect(r.stdout.contains("Inspector"))
    }

    @Test(arguments: [
        (["--headless", "--keys", "1 Foo"], "tether-lab: unknown key name \"Foo\" (see --help)"),
        (
            ["--headless", "--keys", "wait:x"],
            "tether-lab: bad wait \"wait:x\" (expected wait:MS, MS from 0 to 3600000) (see --help)"
        ),
        (
            ["--headless", "--size", "12"],
            "tether-lab: the value '12' is invalid for '--size <WxH>' (see --help)"
        ),
        (
            ["--headless", "--dump", "xml"],
            "tether-lab: the value 'xml' is invalid for '--dump <json|screen>'. Please provide one of 'json' "
                + "and 'screen'. (see --help)"
        ),
        (
            ["--headless", "--script", "/no/such.keys"],
            "tether-lab: cannot read script \"/no/such.keys\" (see --help)"
        ),
        (["--bogus"], "tether-lab: unknown option '--bogus' (see --help)"),
        (["--keys", "1"], "tether-lab: --size, --keys, --script and --dump need --headless (see --help)"),
        (["--soak", "0"], "tether-lab: bad --soak count 0 (expected a positive number) (see --help)"),
        (["--soak", "-1"], "tether-lab: bad --soak count -1 (expected a positive number) (see --help)"),
        (
            ["--headless", "--size", "-5x10"],
            "tether-lab: the value '-5x10' is invalid for '--size <WxH>' (see --help)"
        ),
        (
            ["--soak", "1", "--soak-modes", "some"],
            "tether-lab: the value 'some' is invalid for '--soak-modes <bound|leaky|both>'. Please provide one "
                + "of 'bound', 'leaky' or 'both'. (see --help)"
        ),
        (["--no-rss-check"], "tether-lab: --soak-modes and --no-rss-check go with --soak (see --help)"),
        (
            ["--headless", "--keys", "1", "--script", "tour"],
            "tether-lab: give --keys or --script, not both (see --help)"
        ),
        (
            ["--soak", "1", "--serve", "/tmp/x.sock"],
            "tether-lab: --soak runs by itself; it takes no --size, --keys, --script, --dump or --serve (see --help)"
        ),
        (
            ["--soak", "1", "--headless", "--size", "80x24"],
            "tether-lab: --soak runs by itself; it takes no --size, --keys, --script, --dump or --serve (see --help)"
        ),
        (
            ["--headless", "--serve", "/etc/passwd"],
            "tether-lab: --serve: /etc/passwd exists and is not a socket: not replacing it"
        ),
        (["attach", "--bogus", "x"], "tether-lab attach: unknown option '--bogus' (see --help)"),
        (
            ["--headless", "attach", "/tmp/x.sock"],
            "tether-lab: attach comes first: tether-lab attach PATH (see --help)"
        ),
        (["--headless", "--keys", "\u{1B}[2J"], "tether-lab: unknown key name \"^[[2J\" (see --help)"),
        (
            ["--headless", "--serve", ""],
            "tether-lab: --serve: an empty path: give the socket to serve the ledger on (see --help)"
        ),
        (
            ["attach", ""],
            "tether-lab attach: an empty path: give the socket a process serves its ledger on (see --help)"
        ),
    ])
    func badInputIsOneLineAndExitCode2(arguments: [String], line: String) throws {
        let r = try LabBinary.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == line + "\n")
    }

    /// The function keys `--help` names are the ones `--keys` takes: each from the first to the
    /// last it lists, and none past it.
    @Test func theHelpsFunctionKeysAreTheOnesAccepted() throws {
        let help = try LabBinary.run(["--help"]).stdout
        let listed = try #require(help.firstMatch(of: /F(\d+)-F(\d+),/), "the help lists F-keys")
        let (first, last) = (try #require(Int(listed.1)), try #require(Int(listed.2)))
        #expect((first, last) == (1, 63))
        let every = (first...last).map { "F\($0)" }.joined(separator: " ")
        #expect(try LabBinary.run(["--headless", "--keys", every]).status == 0)
        for refused in ["F\(first - 1)", "F\(last + 1)"] {
            let r = try LabBinary.run(["--headless", "--keys", refused])
            #expect(r.status == 2)
            #expect(r.stderr == "tether-lab: unknown key name \"\(refused)\" (see --help)\n")
        }
    }

    @Test func theHelpListsAttachAndAttachHasItsOwn() throws {
        let help = try LabBinary.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("attach") && help.stdout.contains("--serve <path>"))
        let attach = try LabBinary.run(["attach", "--help"])
        #expect(attach.status == 0)
        #expect(attach.stdout.contains("tether-lab attach <path> [--dump <json>]"))
    }

    @Test func notATerminalNamesHeadless() throws {
        let r = try LabBinary.run([])
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("--headless"))
    }

    @Test func helpAndVersionExitZero() throws {
        let help = try LabBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(
            help.stdout.contains("--headless") && help.stdout.contains("wait:MS")
                && help.stdout.contains("--soak"))
        let version = try LabBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == LabResources.version + "\n")
    }

    @Test func soakCyclesEveryScenarioAndPasses() throws {
        let r = try LabBinary.run(["--soak", "3"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.contains("bound: 3 cycles") && r.stdout.contains("leaky: 3 cycles"))
        #expect(r.stdout.contains("cycles/s"))
        #expect(r.stdout.contains("peak RSS"))
        #expect(r.stdout.contains("ledger totals after quit: bound viewModels 0 subscriptions 0 tasks 0"))
        #expect(r.stdout.hasSuffix("soak passed\n"))
    }

    @Test func soakCanRunBoundModeAloneWithoutTheRSSCheck() throws {
        let r = try LabBinary.run(["--soak", "2", "--soak-modes", "bound", "--no-rss-check"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("bound: 2 cycles"))
        #expect(!r.stdout.contains("leaky:"))
        #expect(r.stdout.hasSuffix("soak passed\n"))
    }

    @Test func theRetiredProbeFlagIsRejected() throws {
        let r = try LabBinary.run(["--headless", "--probe"])
        #expect(r.status == 2)
        #expect(r.stderr == "tether-lab: unknown option '--probe' (see --help)\n")
    }
}
