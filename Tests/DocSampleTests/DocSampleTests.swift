import Foundation
import Testing

/// The README's and the DocC articles' samples compile as a reader pastes them, so that none can
/// rot: every Swift block that declares a type or a test, type-checked in the Swift 6 language
/// mode against this build's modules (`SampleCompiler`).
@Suite struct DocSampleTests {
    /// The package's root, above this file's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The README, and every article of every DocC catalog under Sources.
    static func pages() throws -> [SamplePage] {
        let files = FileManager.default
        var pages = [try page("README.md", module: nil)]
        for target in try files.contentsOfDirectory(atPath: root + "/Sources").sorted() {
            let folder = "Sources/\(target)"
            for catalog in try files.contentsOfDirectory(atPath: "\(root)/\(folder)").sorted()
            where catalog.hasSuffix(".docc") {
                let articles = files.enumerator(atPath: "\(root)/\(folder)/\(catalog)")?.allObjects ?? []
                for case let article as String in articles where article.hasSuffix(".md") {
                    pages.append(try page("\(folder)/\(catalog)/\(article)", module: target))
                }
            }
        }
        return pages.sorted { $0.path < $1.path }
    }

    private static func page(_ path: String, module: String?) throws -> SamplePage {
        SamplePage(
            path: path, module: module, text: try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8))
    }

    @Test func everySampleThatDeclaresATypeOrATestCompilesAsPasted() async throws {
        let compiler = try SampleCompiler()
        defer { compiler.removeScratch() }
        let jobs = try Self.pages().flatMap(compiler.jobs(for:))
        for (job, outcome) in zip(jobs, try await compiler.run(jobs)) {
            record(job, outcome)
        }
    }

    /// Records an issue at each block the compiler complained of, with what it said at the
    /// page's lines; warnings count, as they do in the package's own code.
    private func record(_ job: SampleCompiler.Job, _ result: SampleCompiler.Outcome) {
        var said: [Int: [String]] = [:]
        var elsewhere: [String] = []
        for line in result.output.split(separator: "\n") {
            guard let diagnostic = job.diagnostic(line) else { continue }
            if let block = diagnostic.block {
                if said[block.line]?.contains(diagnostic.text) != true {
                    said[block.line, default: []].append(diagnostic.text)
                }
            } else {
                elsewhere.append(diagnostic.text)
            }
        }
        if result.status != 0, said.isEmpty, elsewhere.isEmpty {
            elsewhere.append("swiftc exited with \(result.status): \(result.output)")
        }
        let first = job.files.map(\.block.line).min() ?? 1
        for (line, texts) in said.sorted(by: { $0.key < $1.key }) {
            let text = "\(job.page.path):\(line): this sample does not compile as pasted:\n"
            Issue.record(
                Comment(rawValue: text + texts.joined(separator: "\n")),
                sourceLocation: location(job.page, line))
        }
        if !elsewhere.isEmpty {
            let text = "\(job.page.path): its samples do not compile:\n" + elsewhere.joined(separator: "\n")
            Issue.record(Comment(rawValue: text), sourceLocation: location(job.page, first))
        }
    }

    private func location(_ page: SamplePage, _ line: Int) -> SourceLocation {
        SourceLocation(
            fileID: "Tether/\(page.path)", filePath: "\(Self.root)/\(page.path)", line: line, column: 1)
    }

    /// The pages are found, and their samples: a search that found nothing would pass.
    @Test func theREADMEAndEachCatalogsArticlesAreRead() throws {
        let pages = try Self.pages()
        let paths = Set(pages.map(\.path))
        #expect(paths.contains("README.md"))
        #expect(paths.contains("Sources/Tether/Tether.docc/Tether.md"))
        #expect(paths.contains("Sources/TetherMetrics/TetherMetrics.docc/WatchingAFleet.md"))
        #expect(pages.first { $0.path == "README.md" }?.compiledBlocks.count ?? 0 >= 2)
        #expect(pages.first { $0.path == "Sources/Tether/Tether.docc/Tether.md" }?.module == "Tether")
    }

    /// A block that does not compile fails with its page and the line of the page it is on.
    @Test func aBrokenSampleIsReportedAtItsPagesLine() async throws {
        let page = SamplePage(
            path: "Guide.md", module: "Tether",
            text: """
                # A guide

                ```swift
                final class Model {
                    let bag = DisposeBag()
                    let count: Int = "three"
                }
                ```
                """)
        let compiler = try SampleCompiler()
        defer { compiler.removeScratch() }
        let jobs = try compiler.jobs(for: page)
        #expect(jobs.count == 1)
        let job = try #require(jobs.first)
        let result = try #require(try await compiler.run([job]).first)
        #expect(result.status != 0)
        let said = result.output.split(separator: "\n").compactMap(job.diagnostic)
        #expect(said.map(\.block?.line) == [4], "\(said)")
        #expect(
            said.first?.text.hasPrefix("Guide.md:6:22: error: cannot convert value of type 'String'") == true,
            "\(said)")
    }

    @Test func whatABlockIsIsToldFromItsCode() {
        func block(_ code: String) -> SamplePage.Block {
            SamplePage(path: "A.md", module: nil, text: "```swift\n\(code)\n```").blocks[0]
        }
        #expect(block("@MainActor final class Model {}").declaresTypeOrTest)
        #expect(block("@Test(.noLeaks) func leavesNothing() {}").declaresTypeOrTest)
        #expect(block("struct Point { var x = 0 }").declaresTypeOrTest)
        #expect(!block("let bag = DisposeBag()\nbag.dispose()").declaresTypeOrTest)
        #expect(!block("init() {\n    bag.track(self)\n}").declaresTypeOrTest)
        #expect(!block("let text = \"class Model\"").declaresTypeOrTest)

        #expect(!block("import Tether\n\nfinal class Model {\n    let x = 1\n}").hasTopLevelStatements)
        #expect(
            !block("@MainActor\nfinal class M {\n    init(\n        a: Int\n    ) {}\n}")
                .hasTopLevelStatements)
        #expect(block("final class Settings {}\nlet settings = Settings()").hasTopLevelStatements)
        #expect(block("struct A {}\nprint(\"{\") // }").hasTopLevelStatements)
        #expect(!block("struct A {\n    let brace = \"}\" // {\n}").hasTopLevelStatements)
    }
}
