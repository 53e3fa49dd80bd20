import SwiftSyntax

/// Whose storage an expression names: the owner's own, or another object's.
enum Ownership {
    /// Whether `expr` (a bag or a property) belongs to `owner` itself: `self.x`, or a bare `x`
    /// that is a stored property (or a local). `session.bag` and `self.session.bag` belong to
    /// another object — unless `session` is a stored property whose type is a struct declared
    /// in this file, which is part of the owner.
    static func isOwn(_ expr: ExprSyntax, owner: TypeInfo, types: TypeIndex) -> Bool {
        let path = components(of: ValueFlow.stripInOut(expr))
        guard var names = path, !names.isEmpty else { return false }
        if names.first == "self" { names.removeFirst() }
        if names.count <= 1 { return true }
        // `state.bag`: own if every hop but the last is a value this type stores inline.
        var type = owner
        for name in names.dropLast() {
            let declared = type.storedProperties[name] ?? ""
            guard let inner = types[declared], inner.kind == .struct else { return false }
            type = inner
        }
        return true
    }

    /// Whether `expr` is a stored property of `owner` (`self.x` or a bare `x` no local shadows).
    static func isOwnProperty(_ expr: ExprSyntax, owner: TypeInfo) -> Bool {
        guard let names = components(of: expr) else { return false }
        if names.count == 2, names[0] == "self" {
            return owner.storedProperties[names[1]] != nil || owner.kind == .extended
        }
        guard names.count == 1, let name = names.first else { return false }
        return owner.storedProperties[name] != nil
            && !LocalNames.declared(around: Syntax(expr)).contains(name)
    }

    /// `a.b.c` as ["a", "b", "c"]; nil for anything but names and member accesses (`?` and `!` pass).
    static func components(of expr: ExprSyntax) -> [String]? {
        if let reference = expr.as(DeclReferenceExprSyntax.self) { return [reference.baseName.text] }
        if let access = expr.as(MemberAccessExprSyntax.self), let base = access.base {
            return components(of: base).map { $0 + [access.declName.baseName.text] }
        }
        if let optional = expr.as(OptionalChainingExprSyntax.self) {
            return components(of: optional.expression)
        }
        if let forced = expr.as(ForceUnwrapExprSyntax.self) { return components(of: forced.expression) }
        return nil
    }

    /// `expr`'s text without a leading `self.` and trailing `?`: how the rules compare names.
    static func key(_ expr: ExprSyntax) -> String {
        var text = ValueFlow.stripInOut(expr).trimmedDescription
        if text.hasSuffix("?") { text.removeLast() }
        for prefix in ["self.", "self?.", "self!."] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        return text
    }
}
