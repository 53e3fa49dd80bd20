import Foundation
import Synchronization
import TestSupport
import Testing
import Tether

@testable import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if TETHER_TSAN
// Under TSan, the tests' own locks are the pthread-backed one, as in TetherTests: TSan cannot see
// the futex `Synchronization.Mutex` uses on Linux.
typealias Mutex<Value> = SanitizerMutex<Value>
#endif

/// A fresh directory per test, short enough for socket paths (~104 bytes), removed at the end.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/ti.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Errno(errno)
        }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A path in the directory.
    func callAsFunction(_ name: String) -> String { path + "/" + name }

    /// The names in the directory.
    var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? [] }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The permission bits of the file at `path`, nil when there is none.
func mode(of path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

func isSocket(_ path: String) -> Bool { SocketFile.identity(at: path) != nil }

/// Records a client's events as they come, for whole-history assertions.
final class EventLog: Sendable {
    private let storage = Mutex<[LedgerClient.Event]>([])

    /// Reads until the connection ends (its last event), so the reading task ends by itself.
    init(_ client: LedgerClient) {
        let events = client.events
        Task { [self] in
            for await event in events { storage.withLock { $0.append(event) } }
        }
    }

    var events: [LedgerClient.Event] { storage.withLock { $0 } }

    var snapshots: [InspectorSnapshot] {
        events.compactMap { if case .snapshot(let snapshot) = $0 { snapshot } else { nil } }
    }

    var reports: [InspectorLeakReport] {
        events.compactMap { if case .leak(let report) = $0 { report } else { nil } }
    }

    var disconnect: LedgerClient.DisconnectReason? {
        events.lazy.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }.first
    }

    /// Waits until a snapshot satisfies `predicate`, and returns it.
    @discardableResult
    func waitForSnapshot(
        _ what: String = "a snapshot", sourceLocation: SourceLocation = #_sourceLocation,
        where predicate: (InspectorSnapshot) -> Bool = { _ in true }
    ) async -> InspectorSnapshot? {
        await waitUntil(what, sourceLocation: sourceLocation) { snapshots.contains(where: predicate) }
        return snapshots.first(where: predicate)
    }

    func waitForDisconnect(sourceLocation: SourceLocation = #_sourceLocation) async -> LedgerClient
        .DisconnectReason?
    {
        await waitUntil("a disconnect", sourceLocation: sourceLocation) { disconnect != nil }
        return disconnect
    }
}

extension InspectorSnapshot {
    /// The notes of the log, in order.
    var notes: [String] { events.filter { $0.kind == .note }.compactMap(\.message) }
}

/// An owner for the tests: a `DisposeBag` it tracks, with one subscription bound to it.
final class TestOwner {
    let bag = DisposeBag()

    init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        events.sink { _ in }.store(boundTo: bag)
    }
}

/// An owner that leaks: a subscription attributed to it, which its bag does not end, holds it
/// through its closure. Ending the bag leaves both alive: a leak with one survivor.
final class LeakyOwner {
    let bag = DisposeBag()
    private var kept: AnyCancellable?

    init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        kept = events.sink(attributedTo: bag) { [self] _ in _ = self.kept }
    }
}
