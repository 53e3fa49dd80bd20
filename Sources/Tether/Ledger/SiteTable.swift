/// Every call site the ledger has recorded, once; entries and events keep an index into it. It
/// grows with the call sites a program has, not with what it records. Each site's
/// `File.swift:LINE` is spelled once, when the site is added: what a task started there is named
/// with (``TaskName``).
struct SiteTable {
    private var sites: [CallSite] = []
    private var names: [String] = []
    private var indices: [Key: SiteIndex] = [:]
    /// Sites looked up lately, by a cheap hash of their key: most lookups end here, without
    /// hashing the key for the dictionary (a program records from few sites at a time).
    private var recent = [(key: Key, index: SiteIndex)](repeating: (Key(file: 0, line: 0), .none), count: 64)

    /// A call site by the address of its file's name (a literal: one address per file in a
    /// binary) and its line: two words to hash, not the file's name.
    private struct Key: Hashable {
        let file: UInt
        let line: UInt

        init(file: UInt, line: UInt) {
            self.file = file
            self.line = line
        }

        init(_ site: CallSite) {
            file =
                site.fileID.hasPointerRepresentation
                ? UInt(bitPattern: site.fileID.utf8Start) : UInt(site.fileID.unicodeScalar.value) | 1 << 63
            line = site.line
        }
    }

    subscript(index: SiteIndex) -> CallSite { sites[Int(index.rawValue)] }

    /// The site at `index` as `File.swift:LINE`, spelled when it was added.
    func name(of index: SiteIndex) -> String { names[Int(index.rawValue)] }

    /// The index of `site`, adding it the first time.
    mutating func index(of site: CallSite) -> SiteIndex {
        let key = Key(site)
        let slot = Int(truncatingIfNeeded: (key.file >> 4 ^ key.line &* 0x9E37_79B9) & 63)
        if recent[slot].key == key, recent[slot].index != .none { return recent[slot].index }
        let index: SiteIndex
        if let known = indices[key] {
            index = known
        } else {
            index = SiteIndex(rawValue: UInt32(sites.count))
            sites.append(site)
            names.append(site.description)
            indices[key] = index
        }
        recent[slot] = (key, index)
        return index
    }
}

/// A call site's place in a ``SiteTable``, or ``none``.
struct SiteIndex: Equatable {
    let rawValue: UInt32
    static let none = SiteIndex(rawValue: .max)
}
