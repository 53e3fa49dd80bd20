/// Where in the code a binding was made: `File.swift:LINE`.
///
/// Tether captures it through default arguments (`#fileID`, `#line`), so callers write nothing
/// extra. Holding one costs no allocation.
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    /// The `#fileID` of the call: `Module/File.swift`.
    public let fileID: StaticString
    /// The line of the call.
    public let line: UInt

    public init(fileID: StaticString = #fileID, line: UInt = #line) {
        self.fileID = fileID
        self.line = line
    }

    /// The file's name without its module: `File.swift`.
    public var file: String {
        let id = fileID.description
        guard let slash = id.lastIndex(of: "/") else { return id }
        return String(id[id.index(after: slash)...])
    }

    /// `File.swift:LINE`.
    public var description: String { "\(file):\(line)" }

    public static func == (lhs: CallSite, rhs: CallSite) -> Bool {
        lhs.line == rhs.line && lhs.fileID.description == rhs.fileID.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileID.description)
        hasher.combine(line)
    }
}

/// What a ledger entry stands for.
public enum EntryKind: String, Sendable, CaseIterable, Codable {
    /// A Combine subscription bound to a lifetime: a stored `AnyCancellable`, a fuse.
    case subscription
    /// A Swift Concurrency task: a stored task, an `asyncSink` body.
    case task
    /// An observer: a `LiveData` observer, an `@Observed` observation.
    case observer
    /// A two-way binding between two `@Observed` properties.
    case binding
}

/// The identity of an owner in the ledger: its type's name and a short serial, `ViewModel#3`.
public struct OwnerID: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// The owner's type name, without module.
    public let typeName: String
    /// The owner's serial among owners of the same type in this ledger, from 1.
    public let serial: Int

    public init(typeName: String, serial: Int) {
        self.typeName = typeName
        self.serial = serial
    }

    public var description: String { "\(typeName)#\(serial)" }

    public static func < (lhs: OwnerID, rhs: OwnerID) -> Bool {
        (lhs.typeName, lhs.serial) < (rhs.typeName, rhs.serial)
    }
}
