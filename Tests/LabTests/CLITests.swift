import Foundation
import Lab
import Testing

/// The real binary's command line: flags, output, exit codes, one-line errors.
@Suite struct CLITests {
    @Test func headlessPrintsTheDesignsJSON() throws {
        let r = try LabBinary.run(["--headless", "--probe", "--keys", "1 r r"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let dump = try JSONDecoder().decode(LabDump.self, from: Data(r.stdout.utf8))
        #expect(dump.stack == ["home", "probe"])
        #expect(dump.orientation == "portraitUpsideDown")
        #expect(dump.counters.viewModels == 1)
    }

    @Test func bundledScriptsRunFromAnyDirectory() throws {
        let bound = try LabBinary.run(["--headless", "--probe", "--script", "bound-orientation"])
        #expect(bound.status == 0)
        let b = try JSONDecoder().decode(LabDump.self, from: Data(bound.stdout.utf8))
        #expect(b.counters.leaks == 0 && b.counters.viewModels == 0 && b.stack == ["home"])
        let leaky = try LabBinary.run(["--headless", "--probe", "--script", "leaky-orientation.keys"])
        let l = try JSONDecoder().decode(LabDump.self, from: Data(leaky.stdout.utf8))
        #expect(l.leaks.count == 1)
        #expect(l.leaks.first?.site.hasPrefix("ProbeScenario.swift:") == true)
    }

    @Test func scriptFilesWithComments() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID()).keys")
        try "# present and rotate\n1\nr # once\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try LabBinary.run(["--headless", "--probe", "--script", file.path])
        #expect(r.status == 0)
        #expect(
            try JSONDecoder().decode(LabDump.self, from: Data(r.stdout.utf8)).orientation == "landscapeLeft")
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
            "tether-lab: bad size \"12\" (expected WxH, e.g. 120x40) (see --help)"
        ),
        (
            ["--headless", "--dump", "xml"],
            "tether-lab: bad --dump \"xml\" (expected json or screen) (see --help)"
        ),
        (
            ["--headless", "--script", "/no/such.keys"],
            "tether-lab: cannot read script \"/no/such.keys\" (see --help)"
        ),
        (["--bogus"], "tether-lab: unknown option '--bogus' (see --help)"),
        (["--keys", "1"], "tether-lab: --size, --keys, --script and --dump need --headless (see --help)"),
        (["--soak", "0"], "tether-lab: bad --soak count 0 (expected a positive number) (see --help)"),
    ])
    func badInputIsOneLineAndExitCode2(arguments: [String], line: String) throws {
        let r = try LabBinary.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == line + "\n")
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

    @Test func soakSaysWhenThereIsNothingToSoak() throws {
        if Scenarios.all.isEmpty {
            let r = try LabBinary.run(["--soak", "2"])
            #expect(r.status == 2)
            #expect(r.stderr == "tether-lab: no scenarios to soak yet\n")
        }
        let probe = try LabBinary.run(["--soak", "3", "--probe"])
        #expect(probe.status == 0)
        #expect(probe.stdout.contains("cycles/s"))
        #expect(probe.stdout.contains("peak RSS"))
        #expect(probe.stdout.contains("soak passed"))
    }
}
