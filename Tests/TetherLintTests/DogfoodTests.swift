import Foundation
import Testing
import TetherLint

/// The lab's leaky twins are the seeds' bugs on purpose: the checker must find each one with
/// the rule its scenario teaches, find nothing in a bound twin, and each twin must say so with
/// an ignore comment. A new scenario is one row of `expected`.
@Suite struct DogfoodTests {
    /// Scenario folder → the rules that find its leaky twin. An empty set is a twin no rule can
    /// see, with the reason.
    static let expected: [String: (rules: Set<RuleID>, why: String)] = [
        "Orientation": ([.unstoredTask], "the loop's task is never stored"),
        "LiveData": ([.sinkRetainCycle], "each panel's completion holds the panel it observes for"),
        "Fuse": (
            [],
            "the leaky forwarder maps with [weak self] and no fuse: nothing crashes, it only delivers nil, "
                + "and unowned-self-publisher is about [unowned self]"
        ),
        "AsyncSink": ([.taskInSink], "the naive asyncSink starts a task per value inside its sink"),
        "Observed": ([.sinkRetainCycle], "the observations hold the view model that holds their storage"),
        "Lifecycle": (
            [.sinkRetainCycle, .unstoredTask, .strongSelfLoop],
            "the observer's completion holds the view model; the ticker is a task nobody stores, "
                + "and self?.tick() holds the view model while it loops"
        ),
        "Accumulation": ([.foreignBag], "the subscription goes into the session's bag"),
        "Observation": (
            [.unstoredTask, .strongSelfLoop],
            "the loop's task is never stored, and guard let self holds the view model for the whole loop"
        ),
    ]

    static let scenarios = packageRoot + "/Sources/Lab/Scenarios"

    @Test func everyScenarioHasARow() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.scenarios + "/" + name, isDirectory: &isFolder)
                && isFolder.boolValue
        }
        #expect(Set(folders) == Set(Self.expected.keys), "a scenario without a row in DogfoodTests.expected")
    }

    @Test func everyLeakyTwinIsFoundByItsScenariosRules() throws {
        let findings = try Self.findings(honoringIgnores: false)
        for (folder, row) in Self.expected {
            let found = Set(findings.filter { $0.file.contains("/Scenarios/\(folder)/") }.map(\.rule))
            #expect(found == row.rules, "\(folder): \(row.why)")
        }
    }

    @Test func everyFindingIsALeakyTwinMarkedAsOne() throws {
        // With the ignore comments honoured nothing is left: every finding sits under one.
        #expect(try Self.findings(honoringIgnores: true).isEmpty)
        // And every ignore comment in the lab marks a leaky twin that a finding needs it for.
        let findings = try Self.findings(honoringIgnores: false)
        let files = try LintRun.files(in: [Self.scenarios], workingDirectory: packageRoot)
        for file in files {
            let lines = try String(contentsOfFile: file.path, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.contains("tether-lint: ignore") {
                #expect(line.contains("the leaky twin of"), "\(file.displayPath):\(index + 1)")
                let silenced = findings.filter {
                    $0.file == file.displayPath && ($0.line == index + 1 || $0.line == index + 2)
                        && line.contains($0.rule.rawValue)
                }
                #expect(!silenced.isEmpty, "\(file.displayPath):\(index + 1) silences nothing")
            }
        }
    }

    /// The real binary over the lab's scenarios, as CI runs it.
    static func findings(honoringIgnores: Bool) throws -> [Finding] {
        let result = try LintBinary.run(
            ["--format", "json", "Sources/Lab/Scenarios"] + (honoringIgnores ? [] : ["--no-ignores"]),
            in: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let entries =
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return entries.compactMap { entry in
            guard let file = entry["file"] as? String, let line = entry["line"] as? Int,
                let rule = (entry["rule"] as? String).flatMap(RuleID.init(rawValue:))
            else { return nil }
            return Finding(
                file: file, line: line, column: entry["column"] as? Int ?? 0, rule: rule, message: "")
        }
    }
}

/// The package's folder: three levels above this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
