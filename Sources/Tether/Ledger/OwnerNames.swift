/// Names owners in one ledger: `ScreenA.ViewModel#1`, unique per ledger.
///
/// A type is named by its qualified name without its module (enclosing types kept, so
/// `ScreenA.ViewModel` and `ScreenB.ViewModel` differ; private and local contexts, whose names
/// carry addresses, dropped). Should two types still read alike (private types of one name in two
/// files), the later one is told apart by a suffix (`Model~2`): the leaks of different types are
/// never grouped as one. Serials count per type, and names are unique per type, so no two owners
/// share an id.
struct OwnerNames {
    /// Each type's name, by its place in `names`.
    private var types: [ObjectIdentifier: UInt32] = [:]
    /// Every name given, in order: an ``OwnerTag`` names its owner's type by its place here. A
    /// new type's name is checked against them (once per type), so that no two types share one.
    private var names: [String] = []
    /// How many owners of each name's type were made, by the name's place.
    private var made: [Int] = []

    /// The tag of the next owner of `type`.
    mutating func nextTag(for type: any AnyObject.Type) -> OwnerTag {
        let key = ObjectIdentifier(type)
        let name: UInt32
        if let known = types[key] {
            name = known
        } else {
            name = UInt32(names.count)
            names.append(newName(for: type))
            made.append(0)
            types[key] = name
        }
        made[Int(name)] += 1
        return OwnerTag(name: name, serial: made[Int(name)])
    }

    /// Takes back the tag of an owner never followed (a `track` that lost to another on the same
    /// lifetime): if it is the last of its type, the next owner of the type gets its serial, and
    /// a second `track` leaves no gap in the ids. Once a later one was made, the gap stays.
    mutating func giveBack(_ tag: OwnerTag) {
        if made[Int(tag.name)] == tag.serial { made[Int(tag.name)] -= 1 }
    }

    /// The id `tag` stands for.
    func id(of tag: OwnerTag) -> OwnerID {
        OwnerID(typeName: names[Int(tag.name)], serial: tag.serial)
    }

    private func newName(for type: any AnyObject.Type) -> String {
        let base = Self.readableName(of: type)
        var name = base
        var suffix = 1
        while names.contains(name) {
            suffix += 1
            name = "\(base)~\(suffix)"
        }
        return name
    }

    /// `ScreenA.ViewModel`, `Box<Int>`: the type's qualified name without module, private or
    /// local contexts (`Module.(unknown context at $…).Name`), or extension markers; generic
    /// arguments as `String(describing:)` writes them.
    static func readableName(of type: Any.Type) -> String {
        var qualified = Self.withoutGenericArguments(String(reflecting: type))
        if qualified.hasPrefix("(extension in "), let colon = qualified.firstIndex(of: ":") {
            qualified = String(qualified[qualified.index(after: colon)...])
        }
        var parts = qualified.split(separator: ".").filter { !$0.hasPrefix("(") }
        if parts.count > 1 { parts.removeFirst() }  // the module
        let described = String(describing: type)
        let arguments = described.firstIndex(of: "<").map { described[$0...] } ?? ""
        return parts.joined(separator: ".") + arguments
    }

    /// `name` without its generic argument lists, wherever they are: `Screen<Swift.Int>.Model`
    /// reads `Screen.Model` (the `>` of a function type's `->` closes none).
    static func withoutGenericArguments(_ name: String) -> String {
        var depth = 0
        var previous: Character = " "
        var kept = ""
        for character in name {
            defer { previous = character }
            if character == "<" {
                depth += 1
            } else if character == ">", previous != "-", depth > 0 {
                depth -= 1
            } else if depth == 0 {
                kept.append(character)
            }
        }
        return kept
    }
}

/// An owner's id as the ledger's event log keeps it: its type's name by its place in the ledger's
/// ``OwnerNames``, and its serial. Two numbers and no reference: logging an owner's event retains
/// nothing, and the log keeps no record alive.
struct OwnerTag: Equatable {
    let name: UInt32
    let serial: Int
}
