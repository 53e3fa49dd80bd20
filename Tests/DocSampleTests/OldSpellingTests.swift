import Foundation
import Testing

/// Tether's old spellings still compile, each with a deprecation warning that names its new
/// spelling; where the call keeps its receiver, the compiler's fix-it rewrites it into the new
/// spelling, and the new spellings compile without a warning. Checked by compiling a user's file
/// against this build's modules (`SampleCompiler`), as the package's own targets may not call a
/// deprecated API: that would be a warning in the build.
@Suite struct OldSpellingTests {
    /// One old spelling, a statement: what the warning must say, and the statement in its new
    /// spelling — the fix-it's result when `fixIt`.
    struct Spelling: Sendable, CustomStringConvertible {
        let old: String
        let says: String
        let new: String
        let fixIt: Bool

        var description: String { old }
    }

    static let spellings: [Spelling] = [
        .init(
            old: "_ = Lifetime(parent: parent, ledger: ledger)", says: "'init(boundTo:ledger:)'",
            new: "_ = Lifetime(boundTo: parent, ledger: ledger)", fixIt: true),
        .init(
            old: "_ = DisposeBag(parent: bag)", says: "'init(boundTo:ledger:)'",
            new: "_ = DisposeBag(boundTo: bag)", fixIt: true),
        .init(
            old: "_ = Lifetime(ledger: ledger, parent: parent)",
            says: "use Lifetime(boundTo: parent, ledger: ledger)",
            new: "_ = Lifetime(boundTo: parent, ledger: ledger)", fixIt: false),
        .init(old: "_ = bag.lifetime", says: "use the bag itself", new: "_ = bag", fixIt: false),
        .init(
            old: "lifetime.add { print(\"ended\") }", says: "renamed to 'onEnd(_:)'",
            new: "lifetime.onEnd { print(\"ended\") }", fixIt: true),
        .init(
            old: "bag.onDispose { print(\"disposed\") }", says: "renamed to 'onEnd(_:)'",
            new: "bag.onEnd { print(\"disposed\") }", fixIt: true),
        .init(
            old: "lifetime.add(cancellable)", says: "cancellable.store(boundTo: lifetime)",
            new: "cancellable.store(boundTo: lifetime)", fixIt: false),
        .init(
            old: "bag.insert(cancellable)", says: "cancellable.store(boundTo: bag)",
            new: "cancellable.store(boundTo: bag)", fixIt: false),
        .init(
            old: "cancellable.store(in: lifetime)", says: "renamed to 'store(boundTo:fileID:line:)'",
            new: "cancellable.store(boundTo: lifetime)", fixIt: true),
        .init(
            old: "task.store(in: lifetime)", says: "renamed to 'store(boundTo:fileID:line:)'",
            new: "task.store(boundTo: lifetime)", fixIt: true),
        .init(
            old: "lifetime.task { print(\"bound\") }", says: "Task(boundTo: lifetime)",
            new: "Task(boundTo: lifetime) { print(\"bound\") }", fixIt: false),
        .init(
            old: "property.observe(.did, in: lifetime) { new, _ in print(new) }",
            says: "renamed to 'observe(_:boundTo:fileID:line:using:)'",
            new: "property.observe(.did, boundTo: lifetime) { new, _ in print(new) }", fixIt: true),
        .init(
            old: "live.observe(screen) { print($0) }", says: "renamed to 'observe(boundTo:fileID:line:_:)'",
            new: "live.observe(boundTo: screen) { print($0) }", fixIt: true),
        .init(
            old: "_ = ledger.snapshot()", says: "renamed to 'snapshotRearmingOnChange()'",
            new: "_ = ledger.snapshotRearmingOnChange()", fixIt: true),
        .init(
            old: "_ = ledger.takeCounters()", says: "renamed to 'countersRearmingOnChange()'",
            new: "_ = ledger.countersRearmingOnChange()", fixIt: true),
    ]

    /// A user's file: each statement in a function of its own, at a line of its own.
    static func file(_ statements: [String]) -> (source: String, lines: [Int]) {
        var source = [
            "import Tether",
            "final class Screen: LifecycleOwner { let lifecycle = Lifecycle() }",
        ]
        var lines: [Int] = []
        for (index, statement) in statements.enumerated() {
            source.append(
                "func use\(index)(ledger: Ledger, lifetime: Lifetime, parent: Lifetime, bag: DisposeBag, "
                    + "cancellable: AnyCancellable, task: Task<Void, Never>, property: ObservedProperty<Int>, "
                    + "live: LiveData<Int>, screen: Screen) {")
            source.append("    " + statement)
            lines.append(source.count)
            source.append("}")
        }
        return (source.joined(separator: "\n") + "\n", lines)
    }

    @Test func eachOldSpellingWarnsWithItsNewSpellingAndItsFixItWritesIt() async throws {
        let compiler = try SampleCompiler()
        defer { compiler.removeScratch() }
        let spellings = Self.spellings
        let (source, lines) = Self.file(spellings.map(\.old))
        let (path, outcome) = try await compiler.typecheck(source, named: "Old")
        let output = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(outcome.status == 0, "the old spellings must still compile:\n\(outcome.output)")
        #expect(!output.contains { $0.hasPrefix(path) && $0.contains(": error: ") })
        for (spelling, line) in zip(spellings, lines) {
            let warnings = output.filter { $0.hasPrefix("\(path):\(line):") && $0.contains(": warning: ") }
            #expect(warnings.count == 1, "\(spelling): \(warnings)")
            #expect(
                warnings.allSatisfy { $0.contains("is deprecated") && $0.contains(spelling.says) },
                "\(spelling): \(warnings)")
            let fixed = Self.fixIt(at: line, in: path, output)
            if spelling.fixIt {
                #expect(fixed == "    " + spelling.new, "\(spelling): the fix-it gives \(fixed ?? "nothing")")
            } else {
                #expect(fixed == nil, "\(spelling): a fix-it that cannot be right, \(fixed ?? "")")
            }
        }
        // Nothing else: a warning at no old spelling's line would be one of the file's own.
        let all = output.filter { $0.hasPrefix(path) && $0.contains(": warning: ") }
        #expect(all.count == spellings.count, "\(all)")
    }

    @Test func theNewSpellingsCompileWithoutAWarning() async throws {
        let compiler = try SampleCompiler()
        defer { compiler.removeScratch() }
        let (source, _) = Self.file(Self.spellings.map(\.new))
        let (path, outcome) = try await compiler.typecheck(source, named: "New")
        #expect(outcome.status == 0, "\(outcome.output)")
        let said = outcome.output.split(separator: "\n").filter {
            $0.hasPrefix(path) && ($0.contains(": warning: ") || $0.contains(": error: "))
        }
        #expect(said.isEmpty, "\(said)")
    }

    /// The fix-it's rewrite of the line at `line`, from the compiler's `use '…' instead` note:
    /// LLVM's style prints the line, a marker line (`~` under each range it replaces, `^` at the
    /// note's place) and a line with each replacement or insertion at its column. Nil without one.
    static func fixIt(at line: Int, in path: String, _ output: [String]) -> String? {
        guard
            let note = output.firstIndex(where: {
                $0.hasPrefix("\(path):\(line):") && $0.contains(": note: use '")
            }),
            note + 3 < output.count, !output[note + 3].hasPrefix("/"), !output[note + 3].hasPrefix("[")
        else { return nil }
        let (code, marker, edits) = (
            Array(output[note + 1]), Array(output[note + 2]), Array(output[note + 3])
        )
        guard !edits.allSatisfy(\.isWhitespace) else { return nil }
        // Ranges: runs of `~` (a `^` inside or at the start of one belongs to it).
        var ranges: [Int: Int] = [:]
        var column = 0
        while column < marker.count {
            guard "~^".contains(marker[column]) else {
                column += 1
                continue
            }
            let start = column
            while column < marker.count, "~^".contains(marker[column]) { column += 1 }
            if marker[start..<column].contains("~") { ranges[start] = column }
        }
        // Texts: each starts after a space (or at the line's start); the last keeps its spaces.
        var texts: [(column: Int, text: String)] = []
        for index in edits.indices where edits[index] != " " && (index == 0 || edits[index - 1] == " ") {
            texts.append((index, ""))
        }
        for (number, text) in texts.enumerated() {
            let end = number + 1 < texts.count ? texts[number + 1].column : edits.count
            let run = String(edits[text.column..<end])
            texts[number].text = number + 1 < texts.count ? run.trimmingCharacters(in: .whitespaces) : run
        }
        var result = code
        for text in texts.reversed() {
            let end = ranges[text.column] ?? text.column
            guard end <= result.count else { return nil }
            result.replaceSubrange(text.column..<end, with: Array(text.text))
        }
        return String(result)
    }
}
