import Foundation
import TestSupport
import Testing

/// Type-checks a page's samples with the toolchain's `swiftc`, against the modules of the debug
/// build the tests run from, as a reader pastes them: each block a file of its own (its imports
/// are its own, plus the catalog's module for a DocC article), the page's blocks one module (a
/// test may use the type that a block above it declares), in the Swift 6 language mode.
struct SampleCompiler: Sendable {
    /// One `swiftc -typecheck` of some of a page's blocks.
    struct Job: Sendable {
        let page: SamplePage
        let arguments: [String]
        /// The file each block was written to, and how many lines were put before its code.
        let files: [(path: String, block: SamplePage.Block, prelude: Int)]

        /// A compiler diagnostic (`FILE:LINE:COL: error: …`) about one of the blocks, at the page's
        /// line; nil for a note, or a line that is not a diagnostic.
        func diagnostic(_ line: Substring) -> (block: SamplePage.Block?, text: String)? {
            guard line.contains(": error: ") || line.contains(": warning: ") else { return nil }
            for file in files where line.hasPrefix(file.path + ":") {
                let place = line.dropFirst(file.path.count + 1).split(separator: ":", maxSplits: 2)
                guard place.count == 3, let row = Int(place[0]) else { break }
                let pageLine = file.block.line + row - 1 - file.prelude
                return (file.block, "\(page.path):\(pageLine):\(place[1]):\(place[2])")
            }
            return (nil, String(line))
        }
    }

    let swiftc: String
    /// The flags that find the build's modules: Swift modules and the C modules under them.
    let searchFlags: [String]
    /// Where the sample files are written: a folder of this compiler's own, which
    /// ``removeScratch()`` removes.
    let scratch: String

    /// The compiler on `PATH` and the build the test process was built in.
    init() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard
            let swiftc = path.split(separator: ":").map({ "\($0)/swiftc" }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { throw Failure("no swiftc on PATH: the samples need the toolchain that built the tests") }
        self.swiftc = swiftc
        let bin = try Self.buildDirectory()
        var flags = ["-I", bin + "/Modules"]
        // SwiftPM's C targets: a generated module map each, or one of their own in an include folder.
        var maps = try Self.files(in: bin) { $0.hasSuffix(".build") }.map { "\(bin)/\($0)/module.modulemap" }
        let checkouts = URL(fileURLWithPath: bin).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("checkouts").path
        for package in (try? Self.files(in: checkouts) { _ in true }) ?? [] {
            let sources = "\(checkouts)/\(package)/Sources"
            for target in (try? Self.files(in: sources) { _ in true }) ?? [] {
                maps.append("\(sources)/\(target)/include/module.modulemap")
            }
        }
        for map in maps where FileManager.default.fileExists(atPath: map) {
            flags += ["-Xcc", "-fmodule-map-file=\(map)"]
        }
        // The build's own module cache: the toolchain's modules are in it already, and it is made
        // for compilers sharing it.
        searchFlags = flags + ["-module-cache-path", bin + "/ModuleCache"]
        scratch = NSTemporaryDirectory() + "tether-samples-\(UUID().uuidString)"
    }

    /// The jobs that check `page`: its blocks in one module — or, when some have statements at
    /// their top level, one module per such block (as `main.swift`) with the page's other blocks.
    func jobs(for page: SamplePage) throws -> [Job] {
        let blocks = page.compiledBlocks
        guard !blocks.isEmpty else { return [] }
        let library = blocks.filter { !$0.hasTopLevelStatements }
        let scripts = blocks.filter(\.hasTopLevelStatements)
        let groups = scripts.isEmpty ? [(nil, library)] : scripts.map { ($0, library) }
        let slug = page.path.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return try groups.enumerated().map { index, group in
            let (script, others) = group
            let directory = "\(scratch)/\(String(slug))-\(index)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var files: [(path: String, block: SamplePage.Block, prelude: Int)] = []
            for block in others + [script].compactMap({ $0 }) {
                let name = block.line == script?.line ? "main.swift" : "block\(block.line).swift"
                let prelude = page.module.map { ["import \($0)"] } ?? []
                let path = "\(directory)/\(name)"
                try (prelude + block.code).joined(separator: "\n").write(
                    toFile: path, atomically: true, encoding: .utf8)
                files.append((path, block, prelude.count))
            }
            let arguments =
                ["-typecheck", "-swift-version", "6", "-enable-upcoming-feature", "MemberImportVisibility"]
                + ["-diagnostic-style=llvm", "-module-name", "Sample"]
                + (script == nil ? ["-parse-as-library"] : []) + searchFlags + files.map(\.path)
            return Job(page: page, arguments: arguments, files: files)
        }
    }

    /// What the compiler said about one job: its exit status, and its output and errors.
    struct Outcome: Sendable {
        let status: Int32
        let output: String
    }

    /// Runs `jobs`, a few compilers at a time (each loads the toolchain's and the build's modules),
    /// on a thread of their own: waiting for child processes would hold one of the few threads
    /// that run the tests' tasks.
    func run(_ jobs: [Job]) async throws -> [Outcome] {
        try await run(arguments: jobs.map(\.arguments))
    }

    /// Type-checks `source` as a file a user writes, in a module of its own (`-parse-as-library`),
    /// in the Swift 6 language mode, with `-diagnostic-style=llvm` (each fix-it printed under its
    /// line): the file's path, and what the compiler said.
    func typecheck(_ source: String, named name: String) async throws -> (path: String, outcome: Outcome) {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = "\(scratch)/\(name).swift"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        let arguments =
            ["-typecheck", "-swift-version", "6", "-diagnostic-style=llvm", "-module-name", "Sample"]
            + ["-parse-as-library"] + searchFlags + [path]
        return (path, try await run(arguments: [arguments])[0])
    }

    private func run(arguments: [[String]]) async throws -> [Outcome] {
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let swiftc = swiftc
        return try await withCheckedThrowingContinuation { done in
            Thread {
                do {
                    var outcomes: [Outcome] = []
                    for start in stride(from: 0, to: arguments.count, by: width) {
                        let batch = arguments[start..<min(start + width, arguments.count)]
                        let children = try batch.map { try ChildProcess(swiftc, $0) }
                        for child in children {
                            let result = child.finish()
                            outcomes.append(
                                Outcome(status: result.status, output: result.stdout + result.stderr))
                        }
                    }
                    done.resume(returning: outcomes)
                } catch {
                    done.resume(throwing: error)
                }
            }.start()
        }
    }

    /// Removes the sample files written.
    func removeScratch() { try? FileManager.default.removeItem(atPath: scratch) }

    /// The directory of the build the test process was built in: the one with the package's
    /// modules, at or above the test executable.
    private static func buildDirectory() throws -> String {
        let executables = [CommandLine.arguments[0], "/proc/self/exe"].map {
            URL(fileURLWithPath: $0).resolvingSymlinksInPath()
        }
        for executable in executables {
            var directory = executable.deletingLastPathComponent()
            for _ in 0..<4 {
                if FileManager.default.fileExists(atPath: directory.path + "/Modules/Tether.swiftmodule") {
                    return directory.path
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw Failure("no build with Tether's modules beside the test executable \(CommandLine.arguments[0])")
    }

    private static func files(in directory: String, where keep: (String) -> Bool) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter(keep).sorted()
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
