import Foundation

/// A run over files and folders: finds the Swift files, checks them on every core, applies
/// fixes if asked, and gathers the findings in print order.
///
/// Each file is read, parsed, checked and dropped by one task; only findings are kept, so
/// memory holds at most one tree per core.
public enum LintRun {
    /// A file to check: where it is and how findings name it.
    public struct File: Sendable, Hashable {
        public var path: String
        public var displayPath: String

        public init(path: String, displayPath: String) {
            self.path = path
            self.displayPath = displayPath
        }
    }

    /// A file left unchecked, and why (binary, not UTF-8, unreadable).
    public struct Skip: Sendable, Hashable {
        public var path: String
        public var reason: String
    }

    public struct Outcome: Sendable {
        /// What is left to fix, in print order.
        public var findings: [Finding] = []
        /// What `fix` changed, in print order.
        public var fixed: [Finding] = []
        public var skipped: [Skip] = []
        public var files = 0
        public var lines = 0
    }

    /// A path given that does not exist or cannot be read: a usage error (exit status 2).
    public struct PathError: Error, CustomStringConvertible, Equatable {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// Folders never looked into: build products and checkouts, version control.
    static let skippedFolders: Set = [".build", ".git", ".swiftpm"]

    /// The Swift files under `paths` (files are taken as given, folders searched recursively),
    /// sorted and without duplicates, named relative to `workingDirectory` when under it.
    public static func files(in paths: [String], workingDirectory: String) throws(PathError) -> [File] {
        let manager = FileManager.default
        let base = URL(fileURLWithPath: workingDirectory).standardizedFileURL.path
        var found: Set<String> = []
        for path in paths {
            let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: base + "/"))
                .standardizedFileURL.path
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: absolute, isDirectory: &isFolder) else {
                throw PathError(description: "no such file or folder: \(path)")
            }
            guard manager.isReadableFile(atPath: absolute) else {
                throw PathError(description: "cannot read \(path)")
            }
            guard isFolder.boolValue else {
                found.insert(absolute)
                continue
            }
            guard let walker = manager.enumerator(atPath: absolute) else {
                throw PathError(description: "cannot read the folder \(path)")
            }
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                    if skippedFolders.contains(name) || name.hasPrefix(".build-") || name.hasPrefix(".build_")
                    {
                        walker.skipDescendants()
                    }
                } else if name.hasSuffix(".swift") {
                    found.insert(absolute + "/" + relative)
                }
            }
        }
        return found.sorted().map { File(path: $0, displayPath: display($0, base: base)) }
    }

    private static func display(_ path: String, base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Checks `files` with `linter`, as many at once as there are cores. With `fix`, a file
    /// with safe fixes is rewritten in place, and its findings are checked again.
    public static func run(_ files: [File], linter: Linter, fix: Bool = false) async -> Outcome {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var outcome = Outcome()
        await withTaskGroup(of: FileResult.self) { group in
            var next = 0
            func start() {
                guard next < files.count else { return }
                let file = files[next]
                next += 1
                group.addTask { check(file, linter: linter, fix: fix) }
            }
            for _ in 0..<width { start() }
            for await result in group {
                outcome.findings += result.findings
                outcome.fixed += result.fixed
                if let skip = result.skip { outcome.skipped.append(skip) } else { outcome.files += 1 }
                outcome.lines += result.lines
                start()
            }
        }
        outcome.findings.sort(by: Finding.inPrintOrder)
        outcome.fixed.sort(by: Finding.inPrintOrder)
        outcome.skipped.sort { $0.path < $1.path }
        return outcome
    }

    private struct FileResult: Sendable {
        var findings: [Finding] = []
        var fixed: [Finding] = []
        var skip: Skip?
        var lines = 0
    }

    private static func check(_ file: File, linter: Linter, fix: Bool) -> FileResult {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return FileResult(skip: Skip(path: file.displayPath, reason: "cannot be read"))
        }
        if data.contains(0) { return FileResult(skip: Skip(path: file.displayPath, reason: "binary")) }
        guard let source = String(validating: data, as: UTF8.self) else {
            return FileResult(skip: Skip(path: file.displayPath, reason: "not UTF-8 text"))
        }
        var result = FileResult(lines: source.utf8.count { $0 == UInt8(ascii: "\n") })
        let findings = linter.check(source: source, path: file.displayPath)
        guard fix, findings.contains(where: { !$0.edits.isEmpty }) else {
            result.findings = findings
            return result
        }
        let (fixedSource, applied) = Fixer.apply(findings, to: source)
        do {
            try Data(fixedSource.utf8).write(to: URL(fileURLWithPath: file.path))
        } catch {
            result.findings = findings
            result.skip = nil
            return result
        }
        result.fixed = applied
        result.findings = linter.check(source: fixedSource, path: file.displayPath)
        return result
    }
}
