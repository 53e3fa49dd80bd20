/// `--format sarif`: one SARIF 2.1.0 run, its rules described, each finding a result with its
/// location relative to the source root (`%SRCROOT%`, the working directory) and its fix in
/// words. Columns are UTF-16 code units, SARIF's default.
enum SARIFFormat {
    struct Log: Encodable {
        var version = "2.1.0"
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var runs: [Run]

        enum CodingKeys: String, CodingKey {
            case version, runs
            case schema = "$schema"
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
        var columnKind = "utf16CodeUnits"
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name = "tether-lint"
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var shortDescription: Message
        var defaultConfiguration = Configuration()
    }

    struct Configuration: Encodable {
        var level = "warning"
    }

    struct Message: Encodable {
        var text: String
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level = "warning"
        var message: Message
        var locations: [Location]
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        /// Set for a path relative to the working directory; nil for an absolute `file://` URI.
        var uriBaseId: String?
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }

    static func render(_ findings: [Finding]) -> String {
        let ids = RuleID.allCases
        let rules = ids.map { Rule(id: $0.rawValue, shortDescription: Message(text: $0.summary)) }
        let results = findings.map { finding in
            let text = finding.fix.map { "\(finding.message). Fix: \($0)" } ?? finding.message
            return Result(
                ruleId: finding.rule.rawValue, ruleIndex: ids.firstIndex(of: finding.rule)!,
                message: Message(text: text),
                locations: [
                    Location(
                        physicalLocation: PhysicalLocation(
                            artifactLocation: artifact(finding.file),
                            region: Region(startLine: finding.line, startColumn: finding.utf16Column)))
                ])
        }
        return JSONFormat.encode(Log(runs: [Run(tool: Tool(driver: Driver(rules: rules)), results: results)]))
    }

    private static func artifact(_ path: String) -> ArtifactLocation {
        path.hasPrefix("/")
            ? ArtifactLocation(uri: "file://" + uri(path), uriBaseId: nil)
            : ArtifactLocation(uri: uri(path), uriBaseId: "%SRCROOT%")
    }

    /// A path as a URI reference: bytes other than unreserved ones and `/` percent-encoded.
    private static func uri(_ path: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".utf8)
        return path.utf8.map { byte in
            guard !allowed.contains(byte) else { return String(UnicodeScalar(byte)) }
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
}
